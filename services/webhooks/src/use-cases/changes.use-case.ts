import { cursorInvalid, type Caller } from '@app/service-kit';
import type { Change, ListChangesQuery } from '@app/contracts';
import { readChanges } from '../db/feed.repository.js';
import { decodeCursor, type FeedPosition } from '../domain/change-cursor.js';
import { changeRecord } from '../domain/change.record.js';
import type { UseCaseContext } from './context.js';

/** The item a client's `after` names, if it is one of the caller's organization's cursors (whether kept is read with the page). */
function positionAfter(organizationId: string, after: string | undefined): FeedPosition | null {
  return after === undefined ? null : decodeCursor(organizationId, after);
}

/**
 * How long a read at the head of the feed may wait for the frontier to pass every change committed before it: about one
 * round of watermarks (milliseconds); more only while a transaction anywhere holds the streams back.
 */
const CATCH_UP_MS = 1000;

/**
 * GET /api/v1/changes: the organization's changes after `after` (from the oldest kept without it), in feed order, up to
 * `limit`. A page that reaches the head of the feed first waits (briefly) until the frontier passes every change that
 * had committed when the request came, so a client that was answered a change and then asks the feed finds it there.
 * With `wait`, an empty answer then waits until a change arrives, `wait` seconds pass, the client goes away or the
 * service closes, and reads again each time the frontier moves. `next_cursor` is the last item's cursor, or `after`
 * itself when nothing is new.
 */
export async function listChanges(
  ctx: UseCaseContext,
  caller: Caller,
  { query, signal }: { query: ListChangesQuery; signal: AbortSignal },
): Promise<{ items: Change[]; meta: { next_cursor: string | null; hasMore: boolean } }> {
  const organizationId = caller.organizationId.toLowerCase();
  const after = positionAfter(organizationId, query.after);
  const started = Date.now();
  const until = started + query.wait * 1000;
  const catchUpUntil = Math.max(until, started + CATCH_UP_MS);
  let horizon: bigint | null = null;
  for (;;) {
    const since = ctx.feed.generation();
    const page = await readChanges(ctx.pool, {
      organizationId,
      streams: ctx.feedStreams,
      after,
      types: query.types ?? null,
      limit: query.limit,
    });
    if (!page.anchored) throw cursorInvalid('after names a change that is no longer kept, or never was');
    horizon ??= page.horizon; // the first read's: what had committed when the request came
    const hasMore = page.items.length > query.limit;
    const items = page.items.slice(0, query.limit).map((row) => changeRecord(organizationId, row));
    const answer = () => ({ items, meta: { next_cursor: items.at(-1)?.cursor ?? query.after ?? null, hasMore } });
    if (hasMore) return answer();
    if (page.frontier < horizon) {
      ctx.feed.catchUp(horizon);
      if (await ctx.feed.changed(since, catchUpUntil, signal)) continue;
    }
    if (items.length > 0 || !(await ctx.feed.changed(since, until, signal))) return answer();
  }
}
