import type { CalendarProvider, ConnectionStatus } from '@app/contracts';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** A connection claimed by this replica for one sync; `leaseToken` fences every write of that sync. */
export interface ClaimedConnection {
  id: string;
  organizationId: string;
  provider: CalendarProvider;
  scheduleId: string;
  calendarIds: string[];
  timeZone: string;
  status: ConnectionStatus;
  consecutiveFailures: number;
  leaseToken: string;
  tokens: SealedTokens;
}

interface ClaimRow {
  id: string;
  organization_id: string;
  provider: CalendarProvider;
  schedule_id: string;
  calendar_ids: string[];
  time_zone: string;
  status: ConnectionStatus;
  consecutive_failures: number;
  lease_token: string;
  token_key_id: string;
  access_token_cipher: Uint8Array<ArrayBuffer>;
  refresh_token_cipher: Uint8Array<ArrayBuffer>;
  token_expires_at: Date;
}

/**
 * Claims up to `limit` due connections. FOR UPDATE SKIP LOCKED lets replicas claim side by side without
 * waiting or taking the same row, and the lease keeps a connection to one sync at a time until it finishes
 * or the lease runs out (a crashed replica's connection is then taken over).
 */
export async function claimDueConnections(prisma: PrismaClient, limit: number, leaseMs: number): Promise<ClaimedConnection[]> {
  const rows = await prisma.$queryRaw<ClaimRow[]>`
    UPDATE calendar_connections c
       SET lease_token = gen_random_uuid(),
           lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
           claimed_at = now()
     WHERE c.id IN (
       SELECT id FROM calendar_connections
        WHERE next_sync_at <= now()
          AND status <> 'reauth_required'
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
        ORDER BY next_sync_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING c.id::text AS id, c.organization_id::text AS organization_id, c.provider, c.schedule_id::text AS schedule_id,
              c.calendar_ids, c.time_zone, c.status, c.consecutive_failures, c.lease_token::text AS lease_token,
              c.token_key_id, c.access_token_cipher, c.refresh_token_cipher, c.token_expires_at`;
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    provider: row.provider,
    scheduleId: row.schedule_id,
    calendarIds: row.calendar_ids,
    timeZone: row.time_zone,
    status: row.status,
    consecutiveFailures: row.consecutive_failures,
    leaseToken: row.lease_token,
    tokens: {
      tokenKeyId: row.token_key_id,
      accessTokenCipher: row.access_token_cipher,
      refreshTokenCipher: row.refresh_token_cipher,
      tokenExpiresAt: row.token_expires_at,
    },
  }));
}

/**
 * Gives a claim back untouched (the replica is shutting down mid-sync): the connection stays due, so
 * another replica (or this one after a restart) syncs it at once. Refreshed tokens are kept.
 */
export async function releaseClaim(prisma: PrismaClient, claim: ClaimedConnection, tokens: SealedTokens | undefined): Promise<void> {
  await prisma.calendarConnection.updateMany({
    where: { id: claim.id, leaseToken: claim.leaseToken },
    data: { leaseToken: null, leaseExpiresAt: null, ...(tokens ?? {}) },
  });
}
