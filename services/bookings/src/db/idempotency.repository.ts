import type { Prisma } from '../generated/prisma/client.js';
import type { Db } from './client.js';

/** How long a key's first response is replayed (Stripe keeps keys for 24 hours too). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export interface IdempotencyKeyRef {
  organizationId: string;
  key: string;
  requestHash: string;
}

export interface StoredResponse {
  requestHash: string;
  statusCode: number;
  body: Prisma.JsonValue;
}

function isExpired(createdAt: Date): boolean {
  return createdAt.getTime() <= Date.now() - IDEMPOTENCY_RETENTION_HOURS * 3_600_000;
}

/**
 * The live (younger than the retention) entry of a key, if any. An expired entry found on the way is
 * deleted, so that the key can be claimed afresh by the creating statement.
 */
export async function findLiveKey(db: Db, ref: Pick<IdempotencyKeyRef, 'organizationId' | 'key'>): Promise<StoredResponse | null> {
  const where = { organizationId_key: { organizationId: ref.organizationId, key: ref.key } };
  const row = await db.idempotencyKey.findUnique({ where });
  if (!row) return null;
  if (isExpired(row.createdAt)) {
    await db.idempotencyKey.deleteMany({ where: { ...where.organizationId_key, createdAt: row.createdAt } });
    return null;
  }
  return { requestHash: row.requestHash, statusCode: row.statusCode, body: row.responseBody };
}

/**
 * Stores a refusal (404/409) as the key's first response, unless a live entry exists (an expired one
 * is taken over); a successful creation stores its response in its own statement instead. Returns
 * false when the key is already taken. While another request holds an uncommitted entry of the same
 * key, the primary key makes this wait for it, so concurrent requests with one key never both win.
 */
export async function storeKey(db: Db, ref: IdempotencyKeyRef, response: { statusCode: number; body: unknown }): Promise<boolean> {
  const stored = await db.$queryRaw<{ key: string }[]>`
    INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response_body)
    VALUES (${ref.organizationId}::uuid, ${ref.key}, ${ref.requestHash}, ${response.statusCode}, ${JSON.stringify(response.body)}::jsonb)
    ON CONFLICT (organization_id, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
          response_body = EXCLUDED.response_body, created_at = now()
      WHERE idempotency_keys.created_at <= now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})
    RETURNING key`;
  return stored.length === 1;
}

/** Deletes entries past the retention; returns how many. */
export async function deleteExpiredKeys(db: Db): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lte: new Date(Date.now() - IDEMPOTENCY_RETENTION_HOURS * 3_600_000) } },
  });
  return count;
}
