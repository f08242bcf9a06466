import { namedStatement, withTransaction, type Queryable, type RetainedRows } from '@app/service-kit';
import type pg from 'pg';

/** Where a stream's ingestion stands: the last stream sequence stored, of the stream created at `created`. */
export interface StreamProgress {
  sequence: bigint;
  created: string | null;
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
  const { rows } = await db.query<{ sequence: string; stream_created: string | null }>(
    namedStatement(
      `UPDATE feed_streams SET lease_holder = $2::uuid, lease_until = now() + make_interval(secs => $3::float8 / 1000)
        WHERE stream = $1 AND (lease_holder IS NULL OR lease_holder = $2::uuid OR lease_until < now())
        RETURNING sequence::text AS sequence, stream_created`,
      [stream, holder, leaseMs],
    ),
  );
  const row = rows[0];
  return row ? { sequence: BigInt(row.sequence), created: row.stream_created } : null;
}

/**
 * Starts the stream's ingestion over for the stream created at `created` (the first one read, or one made again under
 * the name, whose sequences count from 1 again): sequence 0. Items and the watermark stay (positions are transaction
 * ids, which no stream resets). False when `holder` no longer has the lease.
 */
export async function restartStream(db: Queryable, stream: string, holder: string, created: string): Promise<boolean> {
  const { rows } = await db.query(
    namedStatement(
      'UPDATE feed_streams SET sequence = 0, stream_created = $3 WHERE stream = $1 AND lease_holder = $2::uuid RETURNING stream',
      [stream, holder, created],
    ),
  );
  return rows.length === 1;
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
  /** The stream sequence stored before the batch (the fence: nobody else moved it meanwhile) and the batch's last. */
  from: bigint;
  to: bigint;
  /** The batch's items, placed after the stream's watermark as stored when the batch commits (under its row lock). */
  place: (watermark: bigint) => NewFeedItem[];
  leaseMs: number;
}

/**
 * Stores a batch read off the stream, in one transaction: its items (an id already stored is a duplicate and is
 * skipped) and the stream's new sequence, so a restart resumes exactly after what was stored. The stream's row is
 * locked first, only while `holder` has the lease and the sequence is still `from`: false, and nothing stored, when
 * that is no longer so. The items are placed after the watermark read under that lock, which no watermark can pass
 * before the batch commits (applyWatermark waits for the lock).
 */
export async function storeBatch(pool: pg.Pool, batch: IngestedBatch): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ watermark: string }>(
      namedStatement(
        `SELECT watermark::text AS watermark FROM feed_streams
          WHERE stream = $1 AND lease_holder = $2::uuid AND sequence = $3::bigint FOR UPDATE`,
        [batch.stream, batch.holder, String(batch.from)],
      ),
    );
    const row = rows[0];
    if (!row) return false;
    const items = batch.place(BigInt(row.watermark));
    const highWater = items.reduce((max, item) => (BigInt(item.position_tx) > max ? BigInt(item.position_tx) : max), 0n);
    if (items.length > 0) await insertItems(tx, items);
    await tx.query(
      namedStatement(
        `UPDATE feed_streams SET sequence = $2::bigint, high_water = GREATEST(high_water, $3::bigint),
                lease_until = now() + make_interval(secs => $4::float8 / 1000)
          WHERE stream = $1`,
        [batch.stream, String(batch.to), String(highWater), batch.leaseMs],
      ),
    );
    return true;
  });
}

/**
 * Raises the stream's watermark to the publisher's answer if the feed has stored that very stream (the one created at
 * `created`) through the answer's `sequence`: every event of the stream below it is then stored (its relay read
 * `sequence` after the watermark). False when not that far yet, or when the answer is of another stream of the name.
 */
export async function applyWatermark(
  db: Queryable,
  stream: string,
  answer: { watermark: bigint; sequence: number; created: string },
): Promise<boolean> {
  const { rows } = await db.query(
    namedStatement(
      `UPDATE feed_streams SET watermark = GREATEST(watermark, $2::bigint)
        WHERE stream = $1 AND stream_created = $4 AND sequence >= $3::bigint RETURNING stream`,
      [stream, String(answer.watermark), answer.sequence, answer.created],
    ),
  );
  return rows.length === 1;
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

/**
 * How long the change feed keeps an item after storing it: API.md promises at least 30 days, and an item is stored
 * after its event occurred, so a day more covers clocks and a stream that was read late.
 */
const FEED_RETENTION_DAYS = 31;

/**
 * The feed's items past their retention, for the kit's retention sweep (`Built.retention`): a batch per statement, the
 * oldest first (from feed_items_stored_idx).
 */
export const FEED_ITEMS_RETENTION: RetainedRows = {
  name: 'feed_items',
  async deleteExpired(db, batchSize) {
    const { rowCount } = await db.query(
      namedStatement(
        `DELETE FROM feed_items WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM feed_items WHERE stored_at < now() - make_interval(days => $1::int) ORDER BY stored_at LIMIT $2::int))
          AND stored_at < now() - make_interval(days => $1::int)`,
        [FEED_RETENTION_DAYS, batchSize],
      ),
    );
    return rowCount ?? 0;
  },
};
