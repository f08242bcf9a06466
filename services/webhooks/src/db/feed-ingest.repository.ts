import { namedStatement, withTransaction, type Queryable } from '@app/service-kit';
import type pg from 'pg';

/** Where a stream's ingestion stands: the last stream sequence stored and the stream's watermark. */
export interface StreamProgress {
  sequence: bigint;
  watermark: bigint;
}

/** A feed item as the ingester stores it (positions as decimal text). */
export interface NewFeedItem {
  id: string;
  organization_id: string;
  position_tx: string;
  position_seq: string;
  type: string;
  occurred_at: string;
  data: unknown;
  previous_attributes: unknown;
}

/**
 * Takes the stream's lease for `holder` (or renews it), unless another holder's has not run out: one replica ingests
 * each stream. Returns where ingestion stands, or null when another replica holds the stream.
 */
export async function acquireStream(db: Queryable, stream: string, holder: string, leaseMs: number): Promise<StreamProgress | null> {
  await db.query(namedStatement('INSERT INTO feed_streams (stream) VALUES ($1) ON CONFLICT DO NOTHING', [stream]));
  const { rows } = await db.query<{ sequence: string; watermark: string }>(
    namedStatement(
      `UPDATE feed_streams SET lease_holder = $2::uuid, lease_until = now() + make_interval(secs => $3::float8 / 1000)
        WHERE stream = $1 AND (lease_holder IS NULL OR lease_holder = $2::uuid OR lease_until < now())
        RETURNING sequence::text AS sequence, watermark::text AS watermark`,
      [stream, holder, leaseMs],
    ),
  );
  const row = rows[0];
  return row ? { sequence: BigInt(row.sequence), watermark: BigInt(row.watermark) } : null;
}

/** Extends the lease; false when `holder` lost it (it ran out and another replica took the stream). */
export async function renewStream(db: Queryable, stream: string, holder: string, leaseMs: number): Promise<boolean> {
  const { rows } = await db.query(
    namedStatement(
      `UPDATE feed_streams SET lease_until = now() + make_interval(secs => $3::float8 / 1000)
        WHERE stream = $1 AND lease_holder = $2::uuid RETURNING stream`,
      [stream, holder, leaseMs],
    ),
  );
  return rows.length === 1;
}

/** Gives the stream up (a stopping replica), so another takes it at once rather than when the lease runs out. */
export async function releaseStream(db: Queryable, stream: string, holder: string): Promise<void> {
  await db.query(
    namedStatement('UPDATE feed_streams SET lease_holder = NULL WHERE stream = $1 AND lease_holder = $2::uuid', [stream, holder]),
  );
}

export interface IngestedBatch {
  stream: string;
  holder: string;
  /** Where the batch starts: the stored progress it was read after (the fence: nobody else moved it meanwhile). */
  from: StreamProgress;
  /** The last stream sequence of the batch and the watermark after it. */
  to: StreamProgress;
  items: readonly NewFeedItem[];
  leaseMs: number;
}

/**
 * Stores a batch read off the stream, in one transaction: its items (an id already stored is a duplicate and is
 * skipped) and the stream's new sequence and watermark, so a restart resumes exactly after what was stored. The stream's
 * row is updated first, only while `holder` has the lease and the progress is still `from` (its row lock then holds off
 * any other writer): false, and nothing stored, when that is no longer so.
 */
export async function storeBatch(pool: pg.Pool, batch: IngestedBatch): Promise<boolean> {
  const highWater = batch.items.reduce((max, item) => (BigInt(item.position_tx) > max ? BigInt(item.position_tx) : max), 0n);
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(
      namedStatement(
        `UPDATE feed_streams SET sequence = $4::bigint, watermark = $5::bigint, high_water = GREATEST(high_water, $6::bigint),
                lease_until = now() + make_interval(secs => $7::float8 / 1000)
          WHERE stream = $1 AND lease_holder = $2::uuid AND sequence = $3::bigint RETURNING stream`,
        [
          batch.stream,
          batch.holder,
          String(batch.from.sequence),
          String(batch.to.sequence),
          String(batch.to.watermark),
          String(highWater),
          batch.leaseMs,
        ],
      ),
    );
    if (rows.length === 0) return false;
    if (batch.items.length > 0) await insertItems(tx, batch.items);
    return true;
  });
}

async function insertItems(tx: Queryable, items: readonly NewFeedItem[]): Promise<void> {
  await tx.query(
    namedStatement(
      `INSERT INTO feed_items (id, organization_id, position_tx, position_seq, type, occurred_at, data, previous_attributes)
       SELECT id, organization_id, position_tx, position_seq, type, occurred_at, data, previous_attributes
         FROM json_to_recordset($1::json) AS item(id uuid, organization_id uuid, position_tx bigint, position_seq bigint, type text,
                                                   occurred_at timestamptz, data json, previous_attributes json)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(items)],
    ),
  );
}

/** Deletes up to `batch` items stored more than `days` ago, the oldest first (from feed_items_stored_idx); how many. */
export async function sweepFeedItems(db: Queryable, days: number, batch: number): Promise<number> {
  const { rowCount } = await db.query(
    namedStatement(
      `DELETE FROM feed_items WHERE ctid = ANY(ARRAY(
          SELECT ctid FROM feed_items WHERE stored_at < now() - make_interval(days => $1::int) ORDER BY stored_at LIMIT $2::int))
        AND stored_at < now() - make_interval(days => $1::int)`,
      [days, batch],
    ),
  );
  return rowCount ?? 0;
}
