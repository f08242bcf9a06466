import type { CalendarProvider, ConnectionStatus, OAuthCalendarProvider } from '@app/contracts';
import { sqlOf } from '@app/service-kit';
import type { FeedValidators, SealedFeed } from '../domain/connection-feed.js';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { Db } from './prisma.js';

interface ClaimBase {
  id: string;
  organizationId: string;
  scheduleId: string;
  calendarIds: string[];
  /** Write-back's calendar: its tokens are refreshed with write scopes. */
  writeCalendarId: string | null;
  timeZone: string;
  status: ConnectionStatus;
  consecutiveFailures: number;
  leaseToken: string;
}

/** A connection claimed by this replica for one sync; `leaseToken` fences every write of that sync. */
export type ClaimedConnection =
  | (ClaimBase & { provider: OAuthCalendarProvider; tokens: SealedTokens; feed: null })
  | (ClaimBase & { provider: 'ics'; tokens: null; feed: ClaimedFeed });

/** An ICS connection's sealed URL and the validators of its last full read. */
export interface ClaimedFeed {
  sealed: SealedFeed;
  validators: FeedValidators;
}

/** A claim as the statement returns it: the connection's fields with its credentials' columns beside them. */
interface ClaimRow extends ClaimBase {
  provider: CalendarProvider;
  tokenKeyId: string;
  accessTokenCipher: Uint8Array<ArrayBuffer> | null;
  refreshTokenCipher: Uint8Array<ArrayBuffer> | null;
  tokenExpiresAt: Date | null;
  icsUrlCipher: Uint8Array<ArrayBuffer> | null;
  icsEtag: string | null;
  icsLastModified: string | null;
  icsCoveredUntil: Date | null;
}

/**
 * Claims up to `limit` due connections. FOR UPDATE SKIP LOCKED lets replicas claim side by side without
 * waiting or taking the same row, and the lease keeps a connection to one sync at a time until it finishes
 * or the lease runs out (a crashed replica's connection is then taken over).
 */
export async function claimDueConnections(db: Db, limit: number, leaseMs: number): Promise<ClaimedConnection[]> {
  const { rows } = await sqlOf(db).query<ClaimRow>(
    `UPDATE calendar_connections c
        SET lease_token = gen_random_uuid(),
            lease_expires_at = now() + make_interval(secs => $1::float8),
            claimed_at = now()
      WHERE c.id IN (
        SELECT id FROM calendar_connections
         WHERE next_sync_at <= now()
           AND status <> 'reauth_required'
           AND (lease_expires_at IS NULL OR lease_expires_at < now())
         ORDER BY next_sync_at
         LIMIT $2::int
         FOR UPDATE SKIP LOCKED)
     RETURNING c.id::text AS id, c.organization_id::text AS "organizationId", c.provider, c.schedule_id::text AS "scheduleId",
               c.calendar_ids AS "calendarIds", c.write_calendar_id AS "writeCalendarId", c.time_zone AS "timeZone", c.status, c.consecutive_failures AS "consecutiveFailures",
               c.lease_token::text AS "leaseToken", c.token_key_id AS "tokenKeyId", c.access_token_cipher AS "accessTokenCipher",
               c.refresh_token_cipher AS "refreshTokenCipher", c.token_expires_at AS "tokenExpiresAt",
               c.ics_url_cipher AS "icsUrlCipher", c.ics_etag AS "icsEtag", c.ics_last_modified AS "icsLastModified",
               c.ics_covered_until AS "icsCoveredUntil"`,
    [leaseMs / 1000, limit],
  );
  return rows.map(claimOf);
}

/** The row's credentials as its provider has them (the table's check constraint keeps the columns together). */
function claimOf(row: ClaimRow): ClaimedConnection {
  const {
    provider,
    tokenKeyId,
    accessTokenCipher,
    refreshTokenCipher,
    tokenExpiresAt,
    icsUrlCipher,
    icsEtag,
    icsLastModified,
    icsCoveredUntil,
    ...base
  } = row;
  if (provider === 'ics') {
    if (!icsUrlCipher) throw new Error(`ICS connection ${row.id} has no URL`);
    const validators = { etag: icsEtag, lastModified: icsLastModified, coveredUntil: icsCoveredUntil };
    return { ...base, provider, tokens: null, feed: { sealed: { tokenKeyId, icsUrlCipher }, validators } };
  }
  if (!accessTokenCipher || !refreshTokenCipher || !tokenExpiresAt) throw new Error(`connection ${row.id} has no tokens`);
  return { ...base, provider, tokens: { tokenKeyId, accessTokenCipher, refreshTokenCipher, tokenExpiresAt }, feed: null };
}

/** Columns a sync writes back: refreshed or re-encrypted tokens, a re-encrypted feed URL, a feed's new validators. */
export type StoredCredentials = Partial<SealedTokens> &
  Partial<SealedFeed> & { icsEtag?: string | null; icsLastModified?: string | null; icsCoveredUntil?: Date | null };

/**
 * Gives a claim back untouched (the replica is shutting down mid-sync): the connection stays due, so
 * another replica (or this one after a restart) syncs it at once. Refreshed tokens are kept.
 */
export async function releaseClaim(db: Db, claim: ClaimedConnection, credentials: StoredCredentials | undefined): Promise<void> {
  await db.calendarConnection.updateMany({
    where: { id: claim.id, leaseToken: claim.leaseToken },
    data: { leaseToken: null, leaseExpiresAt: null, ...(credentials ?? {}) },
  });
}
