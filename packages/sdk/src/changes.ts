import type { components } from './generated/schema.js';
import type { LooseCall } from './pagination.js';

/** One item of the change feed (`GET /api/v1/changes`). */
export type Change = components['schemas']['Change'];
/** The types the feed carries. */
export type ChangeType = Change['type'];

export interface ChangesOptions {
  /** Resume right after this cursor (an item's `cursor` you stored); from the oldest change kept without it. */
  after?: string | null;
  /** Only these types. */
  types?: readonly ChangeType[];
  /** Items per request (1–200, default 200). */
  limit?: number;
  /**
   * Keep following: once the feed is read to its end, ask again and again with a long poll of `wait` seconds, so new
   * changes arrive as they commit. Without it the iteration ends at the end of the feed.
   */
  follow?: boolean;
  /** Seconds each long poll waits while following (0–30, default 30). */
  wait?: number;
  /** Ends the iteration (a long poll in flight is aborted). */
  signal?: AbortSignal;
}

/**
 * Every change after `options.after`, in the feed's order, each once: pages follow `meta.next_cursor`; with `follow`,
 * long polls wait for the next changes. Store the `cursor` of the last item you processed to resume there later.
 */
export async function* changes(call: LooseCall, options: ChangesOptions = {}): AsyncGenerator<Change, void, undefined> {
  let after = options.after ?? null;
  let atEnd = false;
  while (!options.signal?.aborted) {
    const query = {
      ...(after !== null && { after }),
      ...(options.types && options.types.length > 0 && { types: options.types.join(',') }),
      limit: options.limit ?? 200,
      ...(atEnd && { wait: options.wait ?? 30 }),
    };
    let data: unknown;
    try {
      ({ data } = await call('get', '/api/v1/changes', { params: { query }, ...(options.signal && { signal: options.signal }) }));
    } catch (error) {
      if (options.signal?.aborted) return; // stopped while a long poll waited: the end, not a failure
      throw error;
    }
    const page = data as { data: Change[]; meta: { next_cursor: string | null; hasMore: boolean } };
    yield* page.data;
    after = page.meta.next_cursor;
    atEnd = !page.meta.hasMore;
    if (atEnd && !options.follow) return;
  }
}
