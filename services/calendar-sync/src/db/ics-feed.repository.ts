import { sqlOf } from '@app/service-kit';
import type { Db } from './prisma.js';

/**
 * Creates the schedule's feed, or gives it a new token: the old one then finds nothing. One statement, so two POSTs
 * at once leave one feed (the last token wins) and neither fails.
 */
export async function upsertFeed(
  db: Db,
  feed: { organizationId: string; scheduleId: string; tokenHash: Uint8Array<ArrayBuffer> },
): Promise<void> {
  // A new URL starts with nothing served from it.
  await sqlOf(db).query(
    `INSERT INTO ics_feeds (organization_id, schedule_id, token_hash) VALUES ($1::uuid, $2::uuid, $3)
     ON CONFLICT (organization_id, schedule_id)
     DO UPDATE SET token_hash = EXCLUDED.token_hash, content_hash = NULL, content_changed_at = NULL, updated_at = now()`,
    [feed.organizationId, feed.scheduleId, feed.tokenHash],
  );
}

/** Removes the schedule's feed; false when it had none. */
export async function deleteFeed(db: Db, organizationId: string, scheduleId: string): Promise<boolean> {
  const { count } = await db.icsFeed.deleteMany({ where: { organizationId, scheduleId } });
  return count > 0;
}

export function findFeedByToken(db: Db, tokenHash: Uint8Array<ArrayBuffer>) {
  return db.icsFeed.findUnique({ where: { tokenHash } });
}

/**
 * Records that the feed now serves content `contentHash`, unless it already did: its Last-Modified becomes now, at
 * least a second after the previous one (HTTP dates count whole seconds, and two changes within one second must not
 * share a date, or an If-Modified-Since of the first would hide the second). Returns the feed's Last-Modified.
 */
export async function recordContent(db: Db, tokenHash: Uint8Array<ArrayBuffer>, contentHash: string): Promise<Date | null> {
  const { rows } = await sqlOf(db).query<{ content_changed_at: Date }>(
    `UPDATE ics_feeds
        SET content_hash = $2,
            content_changed_at = GREATEST(date_trunc('second', now()), date_trunc('second', content_changed_at) + interval '1 second'),
            updated_at = now()
      WHERE token_hash = $1 AND content_hash IS DISTINCT FROM $2
      RETURNING content_changed_at`,
    [tokenHash, contentHash],
  );
  if (rows[0]) return rows[0].content_changed_at;
  // Unchanged, or another replica recorded the same content at the same time (or the feed is gone since).
  return (await findFeedByToken(db, tokenHash))?.contentChangedAt ?? null;
}
