import type { OAuthCalendarProvider } from '@app/contracts';
import { sqlOf, type Queryable } from '@app/service-kit';
import type { StoredWrite } from '../domain/calendar-write.js';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { Db } from './prisma.js';

/**
 * A due write claimed by this replica: the row's booking side as the decisions read it (its write state is read again
 * under the lease when the attempt records), with the connection's provider and tokens; `leaseToken` fences what the
 * attempt records.
 */
export type ClaimedWrite = Omit<StoredWrite, 'status' | 'lastError' | 'retryNotBefore' | 'version'> & {
  /** `<connection>/<booking>`: the claiming loop's key. */
  id: string;
  provider: OAuthCalendarProvider;
  leaseToken: string;
  /** The connection's tokens as they were at the claim. */
  tokens: SealedTokens;
};

type ClaimRow = Omit<ClaimedWrite, 'tokens'> & SealedTokens;

/**
 * Claims up to `limit` due writes, oldest due first. FOR UPDATE SKIP LOCKED lets replicas claim side by side, and the
 * lease keeps a row to one attempt until it finishes or the lease runs out. Writes of a connection that needs
 * re-authorization are not claimed: they stay due until it is connected again.
 */
export async function claimDueWrites(db: Db, limit: number, leaseMs: number): Promise<ClaimedWrite[]> {
  const { rows } = await sqlOf(db).query<ClaimRow>(
    `UPDATE calendar_writes w
        SET lease_token = gen_random_uuid(), lease_expires_at = now() + make_interval(secs => $1::float8)
       FROM calendar_connections c
      WHERE c.id = w.connection_id
        AND (w.connection_id, w.booking_id) IN (
          SELECT d.connection_id, d.booking_id FROM calendar_writes d
            JOIN calendar_connections dc ON dc.id = d.connection_id
           WHERE d.next_attempt_at <= now()
             AND dc.status <> 'reauth_required'
             AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
           ORDER BY d.next_attempt_at
           LIMIT $2::int
           FOR UPDATE OF d SKIP LOCKED)
     RETURNING w.connection_id::text || '/' || w.booking_id::text AS id, w.connection_id::text AS "connectionId",
               w.booking_id::text AS "bookingId", w.organization_id::text AS "organizationId", w.schedule_id::text AS "scheduleId",
               w.calendar_id AS "calendarId", c.provider, w.booking_version AS "bookingVersion", w.desired,
               w.start_time AS "startTime", w.end_time AS "endTime", w.summary, w.attendee_email AS "attendeeEmail",
               w.event_id AS "eventId", w.lease_token::text AS "leaseToken", c.token_key_id AS "tokenKeyId",
               c.access_token_cipher AS "accessTokenCipher", c.refresh_token_cipher AS "refreshTokenCipher",
               c.token_expires_at AS "tokenExpiresAt"`,
    [leaseMs / 1000, limit],
  );
  return rows.map(({ tokenKeyId, accessTokenCipher, refreshTokenCipher, tokenExpiresAt, ...write }) => ({
    ...write,
    tokens: { tokenKeyId, accessTokenCipher, refreshTokenCipher, tokenExpiresAt },
  }));
}

/** Gives a claim back untouched (the replica is stopping mid-write): the row stays due for the next replica. */
export async function releaseWrite(db: Queryable, claim: ClaimedWrite): Promise<void> {
  await db.query(
    `UPDATE calendar_writes SET lease_token = NULL, lease_expires_at = NULL
      WHERE connection_id = $1::uuid AND booking_id = $2::uuid AND lease_token = $3::uuid`,
    [claim.connectionId, claim.bookingId, claim.leaseToken],
  );
}

/**
 * Stores tokens a write refreshed, unless the connection's tokens changed since the claim (a sync refreshed them
 * meanwhile: both are valid, and the sync's stay).
 */
export async function storeRefreshedTokens(db: Queryable, claim: ClaimedWrite, tokens: SealedTokens): Promise<void> {
  await db.query(
    `UPDATE calendar_connections
        SET token_key_id = $2, access_token_cipher = $3, refresh_token_cipher = $4, token_expires_at = $5, updated_at = now()
      WHERE id = $1::uuid AND token_expires_at = $6 AND access_token_cipher = $7`,
    [
      claim.connectionId,
      tokens.tokenKeyId,
      Buffer.from(tokens.accessTokenCipher),
      Buffer.from(tokens.refreshTokenCipher),
      tokens.tokenExpiresAt,
      claim.tokens.tokenExpiresAt,
      Buffer.from(claim.tokens.accessTokenCipher),
    ],
  );
}
