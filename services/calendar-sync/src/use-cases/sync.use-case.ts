import { ICS_CALENDAR_ID } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { ownEventsOfSchedule } from '../db/own-events.repository.js';
import { finishSync } from '../db/sync-result.repository.js';
import { releaseClaim, type ClaimedConnection, type StoredCredentials } from '../db/sync.repository.js';
import { openFeedUrl, sealFeedUrl, validatorColumns } from '../domain/connection-feed.js';
import { openTokens, sealTokens, type SealedTokens } from '../domain/connection-tokens.js';
import { decideAfterSync, type SyncOutcome } from '../domain/sync-decision.js';
import { syncRange } from '../domain/sync-range.js';
import { TokenDecryptError, type KeyRing } from '../domain/token-cipher.js';
import { TokenBox, type CalendarRead } from '../clients/calendar-reader.js';
import type { FeedRead } from '../clients/ics-calendar.client.js';
import { accessOf } from '../clients/oauth-scopes.js';
import { ProviderError, ReauthRequiredError, RetryLaterError } from '../clients/provider-errors.js';
import type { UseCaseContext } from './context.js';

export interface SyncInput {
  claim: ClaimedConnection;
  /** Ends the sync: shutdown or the lease running out. */
  signal: AbortSignal;
  /** Aborted at shutdown only. */
  stopping: AbortSignal;
}

/**
 * One sync of a claimed connection: read the provider (without the events this service wrote for the schedule, which
 * its bookings block already), decide what that means, and write it down.
 * `signal` ends it (shutdown or the lease running out); after a shutdown the claim is only given back,
 * so stopping a replica never marks a connection as failed. No caller: the sync loop runs it for a claim.
 */
export async function syncConnection(ctx: UseCaseContext, { claim, signal, stopping }: SyncInput): Promise<void> {
  const syncedAt = ctx.now();
  const range = syncRange(syncedAt);
  let tokens: TokenBox | undefined;
  let feed: { url: string; read?: FeedRead } | undefined;
  let reads: CalendarRead[] = [];
  let outcome: SyncOutcome;
  try {
    if (claim.provider === 'ics') {
      feed = { url: openFeedUrl(ctx.ring, claim.id, claim.feed.sealed) };
      feed.read = await ctx.icsReader.readFeed({
        feed: { url: feed.url, validators: claim.feed.validators },
        range,
        timeZone: claim.timeZone,
        signal,
      });
      reads = readsOfFeed(feed.read);
    } else {
      tokens = new TokenBox(openTokens(ctx.ring, claim.id, claim.tokens), accessOf(claim.writeCalendarId));
      // Read before the provider, so an event written meanwhile is at least a row without an id (its time is cut out).
      const own = await ownEventsOfSchedule(ctx.prisma, claim.scheduleId, claim.provider, range);
      reads = await ctx.readers[claim.provider].readBusy({
        tokens,
        calendarIds: claim.calendarIds,
        range,
        timeZone: claim.timeZone,
        own,
        signal,
      });
    }
    outcome = outcomeOfReads(reads);
  } catch (error) {
    outcome = outcomeOfError(error, ctx.log, claim.id);
  }
  const credentials = claim.provider === 'ics' ? feedToStore(ctx.ring, claim, feed) : tokensToStore(ctx.ring, claim, tokens);
  if (stopping.aborted) {
    await releaseClaim(ctx.prisma, claim, credentials);
    return;
  }
  const decision = decideAfterSync(outcome, claim.consecutiveFailures, ctx.now(), ctx.syncPolicy);
  const committed = await finishSync(ctx.prisma, {
    claim,
    reads,
    decision,
    range,
    syncedAt,
    tokens: credentials,
  });
  if (committed) ctx.relay.wake();
  ctx.syncOutcomes.inc({ provider: claim.provider, outcome: outcomeLabel(outcome) });
  const level = decision.status === 'active' ? 'debug' : 'warn';
  ctx.log[level](
    {
      connection_id: claim.id,
      provider: claim.provider,
      status: decision.status,
      outcome: outcome.kind,
      committed,
      last_error: decision.lastError,
    },
    'calendar sync finished',
  );
}

/** The metric's label: a read is `ok`, `partial` when some of the calendars could not be read, `failed` when none could. */
function outcomeLabel(outcome: SyncOutcome): string {
  if (outcome.kind !== 'read') return outcome.kind;
  if (outcome.failedCalendars.length === 0) return 'ok';
  return outcome.readCalendars > 0 ? 'partial' : 'failed';
}

/**
 * An ICS feed is one calendar. A 304 reads no calendar: its stored windows (which reach past the range, see
 * ics-calendar.client.ts) are kept and published again, and the sync counts as a success.
 */
function readsOfFeed(read: FeedRead): CalendarRead[] {
  return read.kind === 'unchanged' ? [] : [{ calendarId: ICS_CALENDAR_ID, ok: true, windows: read.windows }];
}

function outcomeOfReads(reads: CalendarRead[]): SyncOutcome {
  const failedCalendars = reads.flatMap((read) => (read.ok ? [] : [{ calendarId: read.calendarId, error: read.error }]));
  return { kind: 'read', readCalendars: reads.length - failedCalendars.length, failedCalendars };
}

function outcomeOfError(error: unknown, log: FastifyBaseLogger, connectionId: string): SyncOutcome {
  if (error instanceof ReauthRequiredError) return { kind: 'reauth', message: error.message };
  if (error instanceof RetryLaterError) return { kind: 'retry_later', delayMs: error.delayMs, message: error.message };
  if (error instanceof ProviderError || error instanceof TokenDecryptError) return { kind: 'failed', message: error.message };
  log.error({ err: error, connection_id: connectionId }, 'calendar sync failed unexpectedly');
  return { kind: 'failed', message: 'Internal error while syncing' };
}

/** Refreshed tokens are stored; unchanged ones are re-encrypted when they are still under an old key (rotation). */
function tokensToStore(ring: KeyRing, claim: ClaimedConnection, tokens: TokenBox | undefined): SealedTokens | undefined {
  if (!tokens) return undefined;
  if (tokens.changed || claim.tokens?.tokenKeyId !== ring.current.id) return sealTokens(ring, claim.id, tokens.current);
  return undefined;
}

/** A full read's validators are stored; the URL is re-encrypted when it is still under an old key (rotation). */
function feedToStore(
  ring: KeyRing,
  claim: ClaimedConnection,
  feed: { url: string; read?: FeedRead } | undefined,
): StoredCredentials | undefined {
  if (!feed) return undefined;
  const validators = feed.read?.kind === 'read' ? validatorColumns(feed.read.validators) : {};
  const url = claim.feed?.sealed.tokenKeyId === ring.current.id ? {} : sealFeedUrl(ring, claim.id, feed.url);
  return { ...validators, ...url };
}
