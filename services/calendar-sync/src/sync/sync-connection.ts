import type { CalendarProvider } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { finishSync } from '../db/sync-result.repository.js';
import { releaseClaim, type ClaimedConnection } from '../db/sync.repository.js';
import { openTokens, sealTokens, type SealedTokens } from '../domain/connection-tokens.js';
import { decideAfterSync, type SyncOutcome } from '../domain/sync-decision.js';
import { syncRange } from '../domain/sync-range.js';
import { TokenDecryptError, type KeyRing } from '../domain/token-cipher.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { TokenBox, type CalendarRead, type CalendarReader } from '../providers/calendar-reader.js';
import { ProviderError, ReauthRequiredError, RetryLaterError } from '../providers/provider-errors.js';

export interface SyncDeps {
  prisma: PrismaClient;
  ring: KeyRing;
  readers: Record<CalendarProvider, CalendarReader>;
  intervalMs: number;
  random: () => number;
  log: FastifyBaseLogger;
  /** Wakes the outbox relay once the sync's events are committed. */
  published: () => void;
}

/**
 * One sync of a claimed connection: read the provider, decide what that means, and write it down.
 * `signal` ends it (shutdown or the lease running out); after a shutdown the claim is only given back,
 * so stopping a replica never marks a connection as failed.
 */
export async function syncConnection(claim: ClaimedConnection, deps: SyncDeps, signal: AbortSignal, stopping: AbortSignal): Promise<void> {
  const syncedAt = new Date();
  const range = syncRange(syncedAt);
  let tokens: TokenBox | undefined;
  let reads: CalendarRead[] = [];
  let outcome: SyncOutcome;
  try {
    tokens = new TokenBox(openTokens(deps.ring, claim.id, claim.tokens));
    reads = await deps.readers[claim.provider].readBusy({
      tokens,
      calendarIds: claim.calendarIds,
      range,
      timeZone: claim.timeZone,
      signal,
    });
    outcome = outcomeOfReads(reads);
  } catch (error) {
    outcome = outcomeOfError(error, deps.log, claim.id);
  }
  if (stopping.aborted) {
    await releaseClaim(deps.prisma, claim, tokensToStore(deps.ring, claim, tokens));
    return;
  }
  const decision = decideAfterSync(outcome, claim.consecutiveFailures, new Date(), { intervalMs: deps.intervalMs, random: deps.random });
  const committed = await finishSync(deps.prisma, {
    claim,
    reads,
    decision,
    range,
    syncedAt,
    tokens: tokensToStore(deps.ring, claim, tokens),
  });
  if (committed) deps.published();
  const level = decision.status === 'active' ? 'debug' : 'warn';
  deps.log[level](
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
  if (tokens.changed || claim.tokens.tokenKeyId !== ring.current.id) return sealTokens(ring, claim.id, tokens.current);
  return undefined;
}
