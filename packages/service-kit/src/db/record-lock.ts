import { requireMatch, type IfMatch } from '../http/conditional-requests.js';
import { identifier } from './identifiers.js';
import { sqlOf, type PrismaRaw } from './sql.js';

/**
 * Locks the organization's row `id` of `table` (a table of records with a `version` column) until the transaction
 * ends and reads its version; null when the organization has no such row. `NO KEY UPDATE` for a row that others
 * only reference (a media file an image attaches keeps taking its key share lock meanwhile).
 */
export async function lockVersion(
  db: PrismaRaw,
  table: string,
  organizationId: string,
  id: string,
  strength: 'UPDATE' | 'NO KEY UPDATE' = 'UPDATE',
): Promise<number | null> {
  const { rows } = await sqlOf(db).query<{ version: number }>(
    `SELECT version FROM ${identifier(table)} WHERE id = $1::uuid AND organization_id = $2::uuid FOR ${strength}`,
    [id, organizationId],
  );
  return rows[0]?.version ?? null;
}

/**
 * A write's If-Match, checked against the record's version under the row lock the write then keeps until it commits
 * (a concurrent change with the same ETag waits, then finds the new version): 412 PRECONDITION_FAILED when stale.
 * False when the organization has no such record (the caller's 404). Without If-Match nothing is locked: true.
 */
export async function lockedMatch(
  db: PrismaRaw,
  table: string,
  organizationId: string,
  id: string,
  ifMatch: IfMatch | undefined,
): Promise<boolean> {
  if (ifMatch === undefined) return true;
  return (await lockedRead(db, table, { organizationId, id, ifMatch }, async () => true)) ?? false;
}

/**
 * A write's If-Match, checked as `lockedMatch` does, and the record as `read` finds it after the lock: the state the
 * write starts from, which a concurrent change (its lock waited for) already shows, so its `previous_attributes`
 * describe exactly this write. Null when the organization has no such record (the caller's 404).
 */
export async function lockedRead<T>(
  db: PrismaRaw,
  table: string,
  { organizationId, id, ifMatch }: { organizationId: string; id: string; ifMatch: IfMatch | undefined },
  read: () => Promise<T | null>,
): Promise<T | null> {
  const version = await lockVersion(db, table, organizationId, id);
  if (version === null) return null;
  requireMatch(ifMatch, { id, version });
  return read();
}
