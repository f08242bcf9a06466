import { CALENDAR_PROVIDERS, type CalendarConnection, type CalendarProvider } from '@app/contracts';
import { AppError, invalidInput, notFound } from '@app/service-kit';
import { signState, verifyState } from '../domain/oauth-state.js';
import type { OAuthProvider } from '../providers/oauth-providers.js';
import { createConnection } from './connections.js';
import type { Caller, UseCaseContext } from './context.js';

function providerOf(name: string): CalendarProvider {
  const provider = CALENDAR_PROVIDERS.find((p) => p === name);
  if (!provider) throw notFound('Calendar provider');
  return provider;
}

/** Without client credentials the flow cannot run: say which variables are missing. */
function configured(ctx: UseCaseContext, provider: CalendarProvider): OAuthProvider {
  const oauth = ctx.oauth[provider];
  const missing = oauth.missingVariables();
  if (missing.length > 0) {
    throw new AppError('UPSTREAM_UNAVAILABLE', `OAuth for ${provider} is not configured: set ${missing.join(' and ')}`);
  }
  return oauth;
}

/** The provider's consent URL, with a signed, expiring state bound to the organization and schedule. */
export async function authorize(
  providerName: string,
  input: { scheduleId: string; calendarIds: string[] },
  caller: Caller,
  ctx: UseCaseContext,
): Promise<{ url: string }> {
  const provider = providerOf(providerName);
  const oauth = configured(ctx, provider);
  const schedule = await ctx.scheduling.requireSchedule(caller.organizationId, input.scheduleId, caller.requestId);
  const { token } = signState(
    ctx.stateSecret,
    { organizationId: caller.organizationId, scheduleId: schedule.id, provider, calendarIds: input.calendarIds },
    ctx.now(),
  );
  return { url: oauth.authorizeUrl(token) };
}

export interface CallbackInput {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/** The provider's redirect: check the state (once only), exchange the code, store the connection. */
export async function completeAuthorization(
  providerName: string,
  input: CallbackInput,
  requestId: string,
  ctx: UseCaseContext,
): Promise<CalendarConnection> {
  const provider = providerOf(providerName);
  if (input.error) throw invalidInput('error', `Authorization was not granted: ${input.error_description ?? input.error}`);
  if (!input.code) throw invalidInput('code', 'code is required');
  if (!input.state) throw invalidInput('state', 'state is required');
  const oauth = configured(ctx, provider);
  const state = verifyState(ctx.stateSecret, input.state, provider, ctx.now());
  if (!state) throw invalidInput('state', 'state is invalid or expired: start the authorization again');
  await redeemState(ctx, state.nonce, state.expiresAt);
  const tokens = await oauth.exchangeCode(input.code);
  const caller: Caller = { organizationId: state.organizationId, requestId };
  return createConnection({ provider, scheduleId: state.scheduleId, calendarIds: state.calendarIds, tokens }, caller, ctx);
}

/** A state is good for one callback: the nonce's primary key refuses a replay. */
async function redeemState(ctx: UseCaseContext, nonce: string, expiresAt: Date): Promise<void> {
  await ctx.prisma.oAuthStateUse.deleteMany({ where: { expiresAt: { lt: ctx.now() } } });
  const inserted = await ctx.prisma.$executeRaw`
    INSERT INTO oauth_state_uses (nonce, expires_at) VALUES (${nonce}::uuid, ${expiresAt}) ON CONFLICT (nonce) DO NOTHING`;
  if (inserted === 0) throw invalidInput('state', 'state was already used: start the authorization again');
}
