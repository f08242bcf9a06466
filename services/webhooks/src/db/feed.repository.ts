import { isoInstantSql, namedStatement, type Queryable } from '@app/service-kit';
import type { FeedPosition } from '../domain/change-cursor.js';
import type { FeedItemRow } from '../domain/change.record.js';

/**
 * The frontier: the lowest watermark of the streams (0 until each has one). Every event positioned below it is
 * stored, whichever stream it came from, so items below it can be shown without a later one landing between them.
 */
const FRONTIER = `SELECT CASE WHEN count(*) = cardinality($1::text[]) THEN min(watermark) ELSE 0 END AS frontier
  FROM feed_streams WHERE stream = ANY($1::text[])`;

/** Page sizes the statement is written for (a literal LIMIT keeps one generic plan per text; see the kit's pageClause). */
const PAGE_SIZES = [10, 20, 25, 50, 100, 200];

/** Before every position: a page without a cursor starts at the oldest item kept. */
const START: FeedPosition = { tx: '-1', seq: '-1', id: '00000000-0000-0000-0000-000000000000' };

export interface ChangesQuery {
  organizationId: string;
  /** The streams' names (with the NATS prefix) whose watermarks make the frontier. */
  streams: readonly string[];
  /** The item to resume after (null: from the start), and whether it must exist: a client's cursor must. */
  after: FeedPosition | null;
  types: readonly string[] | null;
  limit: number;
}

/** A page as read, with what the frontier was and where the present began when it was read. */
export interface ChangesRead {
  /** False when the cursor's item is not kept (expired by retention, or never one of this organization's). */
  anchored: boolean;
  items: FeedItemRow[];
  frontier: bigint;
  /** The snapshot's xmax: every transaction that had committed when the page was read has a smaller id. */
  horizon: bigint;
}

/**
 * Up to `limit + 1` items of the organization after `after` and below the frontier, in position order (the extra row
 * says there are more), in one statement that also checks the cursor's item is kept and reads the frontier and the
 * horizon: with the frontier at or past the horizon, the page holds every change committed before it was read.
 */
export async function readChanges(db: Queryable, query: ChangesQuery): Promise<ChangesRead> {
  const size = (PAGE_SIZES.find((candidate) => candidate >= query.limit) ?? query.limit) + 1;
  const after = query.after ?? START;
  const anchor = query.after
    ? `EXISTS (SELECT 1 FROM feed_items WHERE organization_id = $2::uuid AND position_tx = $3::bigint AND position_seq = $4::bigint
                 AND id = $5::uuid)`
    : 'true';
  // One row with nulls besides the anchor's columns when the page is empty (or the cursor's item is not kept).
  const { rows } = await db.query<AnchorRow & Partial<FeedItemRow>>(
    namedStatement(
      `WITH frontier AS (${FRONTIER}),
            anchor AS (SELECT ${anchor} AS anchored, (SELECT frontier FROM frontier)::text AS frontier,
                              pg_snapshot_xmax(pg_current_snapshot())::text AS horizon)
       SELECT anchor.anchored, anchor.frontier, anchor.horizon, page.* FROM anchor LEFT JOIN LATERAL (
         SELECT id::text AS id, type, ${isoInstantSql('occurred_at')} AS occurred_at, position_tx::text AS tx,
                position_seq::text AS seq, data, previous_attributes
           FROM feed_items
          WHERE organization_id = $2::uuid AND (position_tx, position_seq, id) > ($3::bigint, $4::bigint, $5::uuid)
            AND position_tx < (SELECT frontier FROM frontier)
            AND ($6::text[] IS NULL OR type = ANY($6::text[]))
          ORDER BY position_tx, position_seq, feed_items.id
          LIMIT ${size}
       ) page ON anchor.anchored`,
      [query.streams, query.organizationId, after.tx, after.seq, after.id, query.types],
    ),
  );
  const first = rows[0];
  const items = rows.flatMap(({ anchored: _a, frontier: _f, horizon: _h, ...row }) =>
    typeof row.id === 'string' ? [row as FeedItemRow] : [],
  );
  return {
    anchored: first?.anchored ?? false,
    items: items.slice(0, query.limit + 1),
    frontier: BigInt(first?.frontier ?? '0'),
    horizon: BigInt(first?.horizon ?? '0'),
  };
}

interface AnchorRow {
  anchored: boolean;
  frontier: string;
  horizon: string;
}

/** Where a stream stands in the feed: its stored sequence and watermark, and its highest stored position. */
export interface StreamMark {
  stream: string;
  /** Which stream the sequence is of (JetStream's `created`); null before its ingester first opened it. */
  created: string | null;
  sequence: bigint;
  watermark: bigint;
  highWater: bigint;
}

/** Each stream's mark, for the frontier and its asks. */
export async function readStreamMarks(db: Queryable, streams: readonly string[]): Promise<StreamMark[]> {
  const { rows } = await db.query<{
    stream: string;
    stream_created: string | null;
    sequence: string;
    watermark: string;
    high_water: string;
  }>(
    namedStatement(
      `SELECT stream, stream_created, sequence::text AS sequence, watermark::text AS watermark, high_water::text AS high_water
         FROM feed_streams WHERE stream = ANY($1::text[])`,
      [streams],
    ),
  );
  return rows.map((row) => ({
    stream: row.stream,
    created: row.stream_created,
    sequence: BigInt(row.sequence),
    watermark: BigInt(row.watermark),
    highWater: BigInt(row.high_water),
  }));
}
