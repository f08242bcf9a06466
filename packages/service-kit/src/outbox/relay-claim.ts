import type pg from 'pg';
import { namedStatement } from '../db/statements.js';
import type { StoredTraceContext } from '../telemetry/trace-context.js';

export interface ClaimedRow extends StoredTraceContext {
  id: string;
  seq: string;
  /** The recording transaction's id (xid8, decimal); null for rows written before the outbox kept it. */
  tx_id: string | null;
  subject: string;
  organization_id: string;
  payload: unknown;
  attempts: number;
}

/** What a failed publish does to its row: counted refusals and outages are retried, a dead letter is set aside. */
export interface RowFailure {
  row: ClaimedRow;
  error: unknown;
  deadLetter: boolean;
  /** False for an outage (the broker away): not the row's fault, so it does not count towards setting it aside. */
  counted: boolean;
}

const PENDING = 'published_at IS NULL AND dead_at IS NULL';

/**
 * One turn of the organizations with pending rows, after `$2` or from the first: a loose index scan over
 * outbox_pending_idx (one probe per organization, whatever its backlog), at most `$1` of them. Each gets an equal
 * share of the batch, its oldest rows first; rows another replica holds are skipped. Claimed rows are marked published
 * in the same statement, so the success path is one round trip besides BEGIN and COMMIT.
 */
function claimStatement(after: boolean): string {
  return `WITH RECURSIVE organizations AS (
      (SELECT organization_id FROM outbox WHERE ${PENDING}${after ? ' AND organization_id > $2::uuid' : ''}
        ORDER BY organization_id LIMIT 1)
      UNION ALL
      SELECT (SELECT o.organization_id FROM outbox o
               WHERE o.published_at IS NULL AND o.dead_at IS NULL AND o.organization_id > organizations.organization_id
               ORDER BY o.organization_id LIMIT 1)
        FROM organizations WHERE organizations.organization_id IS NOT NULL
    ), turn AS (
      SELECT organization_id FROM organizations WHERE organization_id IS NOT NULL LIMIT $1
    ), claimable AS (
      SELECT c.id FROM turn CROSS JOIN LATERAL (
        SELECT o.id FROM outbox o
         WHERE o.organization_id = turn.organization_id AND o.published_at IS NULL AND o.dead_at IS NULL
         ORDER BY o.seq
         LIMIT (SELECT ceil($1::numeric / count(*))::int FROM turn)
         FOR UPDATE OF o SKIP LOCKED
      ) c
    )
    UPDATE outbox SET published_at = now() WHERE id IN (SELECT id FROM claimable)
    RETURNING id::text AS id, seq::text AS seq, tx_id::text AS tx_id, subject, organization_id::text AS organization_id, payload, attempts,
              traceparent, tracestate`;
}

const FROM_FIRST = claimStatement(false);
const AFTER = claimStatement(true);

/**
 * Claims up to `batchSize` pending rows, shared fairly between organizations (`resumeAfter`: where the last turn
 * stopped, null for the first organization), sorted by `seq`. `resumeAfter` of the result is where the next batch
 * starts: after the last organization served when this turn was cut at `batchSize` organizations, else the first.
 */
export async function claimFairBatch(
  tx: pg.ClientBase,
  batchSize: number,
  resumeAfter: string | null,
): Promise<{ rows: ClaimedRow[]; resumeAfter: string | null }> {
  const values = resumeAfter === null ? [batchSize] : [batchSize, resumeAfter];
  const { rows } = await tx.query<ClaimedRow>(namedStatement(resumeAfter === null ? FROM_FIRST : AFTER, values));
  // RETURNING keeps no order: the stream must get each organization's in the outbox's.
  rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  const organizations = [...new Set(rows.map((row) => row.organization_id))].sort();
  return { rows, resumeAfter: organizations.length >= batchSize ? (organizations.at(-1) ?? null) : null };
}

/** Unmarks the rows that failed (counting the refusals) and sets the dead letters aside, in the relay's transaction. */
export async function markFailures(tx: pg.ClientBase, failures: readonly RowFailure[]): Promise<void> {
  if (failures.length === 0) return;
  await tx.query(
    `UPDATE outbox o SET published_at = NULL, attempts = o.attempts + f.counted::int, last_error = f.error,
            dead_at = CASE WHEN f.dead THEN now() END
       FROM unnest($1::uuid[], $2::text[], $3::boolean[], $4::boolean[]) AS f(id, error, dead, counted)
      WHERE o.id = f.id`,
    [
      failures.map((failure) => failure.row.id),
      failures.map((failure) => String(failure.error)),
      failures.map((failure) => failure.deadLetter),
      failures.map((failure) => failure.counted),
    ],
  );
}
