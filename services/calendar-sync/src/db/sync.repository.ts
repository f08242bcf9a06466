import type { CalendarProvider, ConnectionStatus } from '@app/contracts';
import { sqlOf } from '@app/service-kit';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { Db } from './prisma.js';

/** A connection claimed by this replica for one sync; `leaseToken` fences every write of that sync. */
export interface ClaimedConnection {
  id: string;
  organizationId: string;
  provider: CalendarProvider;
  scheduleId: string;
  calendarIds: string[];
  /** Write-back's calendar: its tokens are refreshed with write scopes. */
  writeCalendarId: string | null;
  timeZone: string;
  status: ConnectionStatus;
  consecutiveFailures: number;
  leaseToken: string;
  tokens: SealedTokens;
}

/** A claim as the statement returns it: the connection's fields with its tokens beside them. */
type ClaimRow = Omit<ClaimedConnection, 'tokens'> & SealedTokens;

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
               c.refresh_token_cipher AS "refreshTokenCipher", c.token_expires_at AS "tokenExpiresAt"`,
    [leaseMs / 1000, limit],
  );
  return rows.map(({ tokenKeyId, accessTokenCipher, refreshTokenCipher, tokenExpiresAt, ...connection }) => ({
    ...connection,
    tokens: { tokenKeyId, accessTokenCipher, refreshTokenCipher, tokenExpiresAt },
  }));
}

/**
 * Gives a claim back untouched (the replica is shutting down mid-sync): the connection stays due, so
 * another replica (or this one after a restart) syncs it at once. Refreshed tokens are kept.
 */
export async function releaseClaim(db: Db, claim: ClaimedConnection, tokens: SealedTokens | undefined): Promise<void> {
  await db.calendarConnection.updateMany({
    where: { id: claim.id, leaseToken: claim.leaseToken },
    data: { leaseToken: null, leaseExpiresAt: null, ...(tokens ?? {}) },
  });
}
