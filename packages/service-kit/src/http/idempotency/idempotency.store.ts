import { randomUUID } from 'node:crypto';
import { namedStatement, type SqlParams } from '../../db/statements.js';
import type { Queryable } from '../../db/sql.js';
import { keyDigest, openResponse, sealResponse } from './sealed-response.js';

/** How long a key's first response is replayed (Stripe keeps keys for 24 hours too). */
const RETENTION_HOURS = 24;
/** How long a reservation holds without renewal: a crashed holder's key is free again after this. */
export const LEASE_MS = 30_000;

const RETAINED = `created_at > now() - make_interval(hours => ${RETENTION_HOURS})`;
const LEASE = `now() + make_interval(secs => ${LEASE_MS / 1000})`;

/** A key of one caller (an organization, or the admin token). The table keeps only its digest (sealed-response.ts). */
export interface KeyRef {
  scope: string;
  key: string;
}

/** What a request with a key is: where it goes, and its body's fingerprint (null until a streamed body is read). */
export interface KeyedRequest extends KeyRef {
  target: string;
  requestHash: string | null;
}

/** The right to answer a key first, held by one request (`token`) until it stores its response or lets go. */
export interface Reservation extends KeyRef {
  token: string;
}

/** A key's record: its first request, and that request's response once it has one. */
export interface KeyRecord {
  target: string;
  requestHash: string | null;
  /** Null while the first request is still being answered. */
  response: { statusCode: number; body: string } | null;
}

export interface FirstResponse {
  statusCode: number;
  /** The body as sent (JSON text). */
  body: string;
}

interface RecordRow {
  request_target: string;
  request_hash: string | null;
  status_code: number | null;
  response_body: string | null;
}

/** The kit's `idempotency_records` table (migration 0003), in the service's schema, over plain pg. */
export class IdempotencyStore {
  constructor(private readonly db: Queryable) {}

  /**
   * Reserves the key for this request, unless it has a live record: a new key, a record past its 24 hours and a
   * reservation whose holder stopped renewing it are taken. Returns null when the key is someone else's.
   */
  async reserve(request: KeyedRequest): Promise<Reservation | null> {
    const token = randomUUID();
    const { rows } = await this.db.query<{ token: string }>(
      namedStatement(
        `INSERT INTO idempotency_records AS r (scope, key, request_target, request_hash, token, locked_until)
         VALUES ($1, $2, $3, $4, $5::uuid, ${LEASE})
         ON CONFLICT (scope, key) DO UPDATE
           SET request_target = EXCLUDED.request_target, request_hash = EXCLUDED.request_hash, token = EXCLUDED.token,
               locked_until = EXCLUDED.locked_until, status_code = NULL, response_body = NULL, created_at = now()
           WHERE (r.status_code IS NULL AND r.locked_until < now()) OR NOT (r.${RETAINED})
         RETURNING token::text AS token`,
        [request.scope, keyDigest(request.key), request.target, request.requestHash, token],
      ),
    );
    return rows[0]?.token === token ? { scope: request.scope, key: request.key, token } : null;
  }

  /** The key's live record (none when absent or past its 24 hours). */
  async find(ref: KeyRef): Promise<KeyRecord | null> {
    const { rows } = await this.db.query<RecordRow>(
      namedStatement(
        `SELECT request_target, request_hash, status_code, response_body FROM idempotency_records
          WHERE scope = $1 AND key = $2 AND ${RETAINED}`,
        [ref.scope, keyDigest(ref.key)],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    const response =
      row.status_code === null || row.response_body === null
        ? null
        : { statusCode: row.status_code, body: openResponse(ref.scope, ref.key, row.response_body) };
    return { target: row.request_target, requestHash: row.request_hash, response };
  }

  /**
   * Stores the first response; false when the reservation is no longer this request's. A response its own request
   * already stored in the creating statement (completeReservationSql) is replaced by the bytes that were sent.
   */
  async complete(reservation: Reservation, requestHash: string, response: FirstResponse): Promise<boolean> {
    const body = sealResponse(reservation.scope, reservation.key, response.body);
    const params = [reservation.scope, keyDigest(reservation.key), reservation.token, requestHash, response.statusCode, body];
    const { rowCount } = await this.db.query(
      namedStatement(
        `UPDATE idempotency_records SET request_hash = $4, status_code = $5::int, response_body = $6
          WHERE scope = $1 AND key = $2 AND token = $3::uuid AND (status_code IS NULL OR status_code = $5::int)`,
        params,
      ),
    );
    return rowCount === 1;
  }

  /** Gives the key up without a response (the request failed on the server's side): a retry runs afresh. */
  async release(reservation: Reservation): Promise<void> {
    await this.db.query(
      namedStatement(`DELETE FROM idempotency_records WHERE scope = $1 AND key = $2 AND token = $3::uuid AND status_code IS NULL`, [
        reservation.scope,
        keyDigest(reservation.key),
        reservation.token,
      ]),
    );
  }

  /** Extends a reservation that is still being worked on. */
  async renew(reservation: Reservation): Promise<void> {
    await this.db.query(
      namedStatement(
        `UPDATE idempotency_records SET locked_until = ${LEASE}
          WHERE scope = $1 AND key = $2 AND token = $3::uuid AND status_code IS NULL`,
        [reservation.scope, keyDigest(reservation.key), reservation.token],
      ),
    );
  }

  /** Deletes up to `limit` records past their 24 hours; returns how many. */
  async deleteExpired(limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      namedStatement(
        `DELETE FROM idempotency_records WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM idempotency_records WHERE NOT (${RETAINED}) LIMIT $1))`,
        [limit],
      ),
    );
    return rowCount ?? 0;
  }
}

/**
 * SQL (for a `WITH … AS (…)` of the caller's own statement) that stores the first response of `reservation`,
 * returning one row when it did. A service whose creation is one statement writes the record and the key's
 * response together with it (bookings does): a crash can then never leave a created record behind a key that
 * has no response, and a request that lost its reservation creates nothing.
 */
export function completeReservationSql(
  reservation: Reservation,
  response: { statusCode: number; body: unknown },
  params: SqlParams,
): string {
  const $ = (value: unknown) => params.add(value);
  const body = sealResponse(reservation.scope, reservation.key, JSON.stringify(response.body));
  return `UPDATE idempotency_records SET status_code = ${$(response.statusCode)}::int, response_body = ${$(body)}
     WHERE scope = ${$(reservation.scope)} AND key = ${$(keyDigest(reservation.key))} AND token = ${$(reservation.token)}::uuid
       AND status_code IS NULL
     RETURNING 1 AS completed`;
}
