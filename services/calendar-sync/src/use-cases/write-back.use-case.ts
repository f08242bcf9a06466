import type { FastifyBaseLogger } from 'fastify';
import { TokenBox } from '../clients/calendar-reader.js';
import type { CalendarWriter, ProviderEventInput, WriteTarget } from '../clients/calendar-writer.js';
import { ProviderError, ReauthRequiredError, RetryLaterError } from '../clients/provider-errors.js';
import { retryStep } from '../clients/provider-retry.js';
import { releaseWrite, type ClaimedWrite } from '../db/write-claim.repository.js';
import { finishWrite } from '../db/write-result.repository.js';
import { openTokens, sealTokens } from '../domain/connection-tokens.js';
import { TokenDecryptError } from '../domain/token-cipher.js';
import type { WriteOutcome } from '../domain/write-decision.js';
import type { UseCaseContext } from './context.js';

export interface WriteInput {
  claim: ClaimedWrite;
  /** Ends the attempt: shutdown or the lease running out. */
  signal: AbortSignal;
  /** Aborted at shutdown only. */
  stopping: AbortSignal;
}

/**
 * One attempt at making the provider hold what a booking asks for (its event there, as it is now, or no event), then
 * writing down how it went. No caller: the writer loop runs it for a claimed row. A shutdown gives the claim back.
 */
export async function writeBookingEvent(ctx: UseCaseContext, { claim, signal, stopping }: WriteInput): Promise<void> {
  const progress = { eventId: claim.eventId };
  let tokens: TokenBox | undefined;
  let outcome: WriteOutcome;
  try {
    const writer = ctx.writers[claim.provider];
    tokens = new TokenBox(openTokens(ctx.ring, claim.connectionId, claim.tokens), 'write');
    const target: WriteTarget = { tokens, calendarId: claim.calendarId, signal };
    await retryStep(() => makeProviderMatch(writer, target, claim, progress), ctx.writeRetry, signal);
    outcome = { kind: 'done', eventId: progress.eventId };
  } catch (error) {
    outcome = outcomeOfError(error, progress.eventId, ctx.log, claim);
  }
  const refreshed = tokens?.changed ? sealTokens(ctx.ring, claim.connectionId, tokens.current) : undefined;
  if (stopping.aborted) {
    await releaseWrite(ctx.pool, claim);
    return;
  }
  const committed = await finishWrite(ctx.prisma, { claim, outcome, tokens: refreshed, now: ctx.now(), policy: ctx.writePolicy });
  if (committed) ctx.relay.wake();
  ctx.writeOutcomes.inc({ provider: claim.provider, outcome: outcome.kind });
  ctx.log[outcome.kind === 'done' ? 'debug' : 'warn'](
    {
      connection_id: claim.connectionId,
      booking_id: claim.bookingId,
      provider: claim.provider,
      desired: claim.desired,
      outcome: outcome.kind,
      committed,
      ...(outcome.kind === 'done' ? {} : { last_error: outcome.message }),
    },
    'calendar write finished',
  );
}

/**
 * present: the recorded event updated, else the one an earlier (timed-out) insert made, found by the booking id, else
 * a new one. absent: the recorded or found event deleted. `progress.eventId` follows what the provider holds, so a
 * failure halfway still records it.
 */
async function makeProviderMatch(
  writer: CalendarWriter,
  target: WriteTarget,
  claim: ClaimedWrite,
  progress: { eventId: string | null },
): Promise<void> {
  const event = providerEventOf(claim);
  if (claim.desired === 'present') {
    if (progress.eventId && (await writer.update(target, progress.eventId, event))) return;
    progress.eventId = await writer.findByBookingId(target, claim.bookingId);
    if (progress.eventId && (await writer.update(target, progress.eventId, event))) return;
    progress.eventId = await writer.insert(target, event);
    return;
  }
  const eventId = progress.eventId ?? (await writer.findByBookingId(target, claim.bookingId));
  if (eventId) await writer.remove(target, eventId);
  progress.eventId = null;
}

function providerEventOf(claim: ClaimedWrite): ProviderEventInput {
  return {
    bookingId: claim.bookingId,
    scheduleId: claim.scheduleId,
    start: claim.startTime.toISOString(),
    end: claim.endTime.toISOString(),
    summary: claim.summary,
    attendeeEmail: claim.attendeeEmail,
  };
}

function outcomeOfError(error: unknown, eventId: string | null, log: FastifyBaseLogger, claim: ClaimedWrite): WriteOutcome {
  if (error instanceof ReauthRequiredError) return { kind: 'reauth', message: error.message, eventId };
  if (error instanceof RetryLaterError) return { kind: 'retry_later', delayMs: error.delayMs, message: error.message, eventId };
  if (error instanceof ProviderError || error instanceof TokenDecryptError) return { kind: 'failed', message: error.message, eventId };
  log.error({ err: error, connection_id: claim.connectionId, booking_id: claim.bookingId }, 'calendar write failed unexpectedly');
  return { kind: 'failed', message: 'Internal error while writing the calendar event', eventId };
}
