import { OAUTH_CALENDAR_PROVIDERS, type CalendarConnection, type OAuthCalendarProvider } from '@app/contracts';
import { AppError, invalidInput, notFound, type Caller } from '@app/service-kit';
import { redeemNonce } from '../db/oauth-state.repository.js';
import { signState, verifyState } from '../domain/oauth-state.js';
import type { OAuthProvider } from '../clients/oauth-providers.js';
import { accessOf } from '../clients/oauth-scopes.js';
import { createConnection } from './connections.use-case.js';
import type { UseCaseContext } from './context.js';

function providerOf(name: string): OAuthCalendarProvider {
  const provider = OAUTH_CALENDAR_PROVIDERS.find((p) => p === name);
  if (!provider) throw notFound('Calendar provider');
  return provider;
}

/** Without client credentials the flow cannot run: say which variables are missing. */
function configured(ctx: UseCaseContext, provider: OAuthCalendarProvider): OAuthProvider {
  const oauth = ctx.oauth[provider];
  const missing = oauth.missingVariables();
  if (missing.length > 0) {
    throw new AppError('UPSTREAM_UNAVAILABLE', `OAuth for ${provider} is not configured: set ${missing.join(' and ')}`);
  }
  return oauth;
}

/**
 * The provider's consent URL, with a signed, expiring state bound to the organization and schedule (and the calendar
 * to write to, which the callback stores). Write scopes are asked for only when the connection asks for write-back.
 */
export async function authorize(
  ctx: UseCaseContext,
  caller: Caller,
  input: { provider: string; scheduleId: string; calendarIds: string[]; writeCalendarId: string | null },
): Promise<{ url: string }> {
  const provider = providerOf(input.provider);
  const oauth = configured(ctx, provider);
  const schedule = await ctx.scheduling.requireSchedule(caller.organizationId, input.scheduleId, caller.requestId);
  const { token } = signState(
    ctx.stateSecret,
    {
      organizationId: caller.organizationId,
      scheduleId: schedule.id,
      provider,
      calendarIds: input.calendarIds,
      writeCalendarId: input.writeCalendarId,
    },
    ctx.now(),
  );
  return { url: oauth.authorizeUrl(token, accessOf(input.writeCalendarId)) };
}

export interface CallbackInput {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/**
 * The provider's redirect: check the state (once only), exchange the code, store the connection.
 * No caller: the browser arrives without a key, and the organization is the one the signed state names.
 */
export async function completeAuthorization(
  ctx: UseCaseContext,
  { provider: providerName, callback: input, requestId }: { provider: string; callback: CallbackInput; requestId: string },
): Promise<CalendarConnection> {
  const provider = providerOf(providerName);
  if (input.error) throw invalidInput('error', `Authorization was not granted: ${input.error_description ?? input.error}`);
  if (!input.code) throw invalidInput('code', 'code is required');
  if (!input.state) throw invalidInput('state', 'state is required');
  const oauth = configured(ctx, provider);
  const state = verifyState(ctx.stateSecret, input.state, provider, ctx.now());
  if (!state) throw invalidInput('state', 'state is invalid or expired: start the authorization again');
  // A state is good for one callback: a replay is refused.
  if (!(await redeemNonce(ctx.prisma, state.nonce, state.expiresAt, ctx.now()))) {
    throw invalidInput('state', 'state was already used: start the authorization again');
  }
  const tokens = await oauth.exchangeCode(input.code, accessOf(state.writeCalendarId));
  // The organization's zone does not travel in the state, and nothing here depends on it.
  // The state was signed for a secret key's authorize call (a publishable key cannot start one).
  const caller: Caller = { organizationId: state.organizationId, timezone: 'UTC', keyType: 'secret', requestId };
  return createConnection(ctx, caller, {
    provider,
    scheduleId: state.scheduleId,
    calendarIds: state.calendarIds,
    writeCalendarId: state.writeCalendarId,
    tokens,
  });
}
