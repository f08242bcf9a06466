import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ListMeta } from '@app/contracts';

/** A list endpoint's answer as the shared paging tests read it. */
export interface ListReply {
  status: number;
  body: { data?: { id: string }[]; meta?: ListMeta; code?: string; error?: string };
}

/** A record as a list showed it. */
export type Listed = { id: string } & Record<string, unknown>;

/** A caller of one list (an organization, and the parent record if the list has one), whose list starts empty. */
export interface PagedListCaller {
  /** GETs the list with `query` (`limit=2&cursor=…`, no `?`) added to the list's own query, if it has one. */
  list(query: string): Promise<ListReply>;
  /** Makes one record of the list; its id. */
  create(): Promise<string>;
  /** Changes a record of the list through the API, so that its updated_at moves. */
  update(id: string): Promise<void>;
}

/** A list whose order a test can insert into anywhere: bookings (start_time), events (starts_at), products (newest first). */
export interface OrderedListCaller extends PagedListCaller {
  /** Adds a record that the list orders right before (`before`) or after (`after`) `record`; its id. */
  insertNear(record: Listed, side: 'before' | 'after'): Promise<string>;
}

interface PagedList<Caller extends PagedListCaller> {
  name: string;
  /** A new caller with an empty list; each call gives one of its own. */
  arrange(): Promise<Caller>;
  /** A filter of the list (`status=cancelled`, no `?`): a cursor made without it is refused with it. */
  otherFilter: string;
}

const RECORDS = 5;

function pageOf(reply: ListReply): { data: Listed[]; meta: ListMeta } {
  if (reply.status !== 200 || !reply.body.data || !reply.body.meta)
    throw new Error(`the list answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return { data: reply.body.data as Listed[], meta: reply.body.meta };
}

/** Every record the list holds now, in its order (one page of 200, offset paging). */
async function everything(caller: PagedListCaller): Promise<string[]> {
  const { data, meta } = pageOf(await caller.list('limit=200'));
  expect(meta.hasMore).toBe(false);
  return data.map((record) => record.id);
}

async function withRecords<Caller extends PagedListCaller>(
  list: PagedList<Caller>,
  count = RECORDS,
): Promise<{ caller: Caller; ids: string[] }> {
  const caller = await list.arrange();
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await caller.create());
  return { caller, ids };
}

/** Walks the list from its first page by `next_cursor`, `limit` records a page; `between` runs before each next page. */
async function walk(caller: PagedListCaller, limit: number, between?: (last: Listed) => Promise<void>) {
  const pages: { data: Listed[]; meta: ListMeta }[] = [pageOf(await caller.list(`limit=${limit}`))];
  for (let cursor = pages[0]?.meta.next_cursor; cursor; cursor = pages.at(-1)?.meta.next_cursor) {
    const last = pages.at(-1)?.data.at(-1);
    if (between && last) await between(last);
    pages.push(pageOf(await caller.list(`limit=${limit}&cursor=${encodeURIComponent(cursor)}`)));
    if (pages.length > 100) throw new Error('the walk does not end');
  }
  return { pages, ids: pages.flatMap((page) => page.data.map((record) => record.id)) };
}

/**
 * API.md's list contract (Change feed, conditional requests and cursors), the same for every list: cursor paging
 * beside offset, `next_cursor` null on the last page, a cursor bound to its filters and organization, and
 * `updated_since`. Each service runs it on its own lists (table-driven).
 */
export function describeListPaging<Caller extends PagedListCaller>(lists: PagedList<Caller>[]): void {
  describe.each(lists)('$name paging and updated_since', (list) => {
    it('when the list is walked by next_cursor, then every record comes once in the list order and the last page has no cursor', async () => {
      const { caller, ids } = await withRecords(list);
      const { pages, ids: walked } = await walk(caller, 2);
      expect(walked).toEqual(await everything(caller));
      expect(walked.toSorted()).toEqual(ids.toSorted());
      expect(pages.map((page) => [page.meta.offset, page.meta.hasMore, page.meta.total])).toEqual([
        [0, true, RECORDS],
        [2, true, RECORDS],
        [4, false, RECORDS],
      ]);
      expect(pages.at(-1)?.meta.next_cursor).toBeNull();
    });

    it('when a page is read by offset, then its next_cursor continues right after it', async () => {
      const { caller } = await withRecords(list);
      const all = await everything(caller);
      const byOffset = pageOf(await caller.list('limit=2&offset=1'));
      expect(byOffset.data.map((record) => record.id)).toEqual(all.slice(1, 3));
      const next = pageOf(await caller.list(`limit=2&cursor=${encodeURIComponent(byOffset.meta.next_cursor ?? '')}`));
      expect(next.data.map((record) => record.id)).toEqual(all.slice(3, 5));
      expect(next.meta).toEqual({ total: RECORDS, limit: 2, offset: 3, hasMore: false, next_cursor: null });
    });

    it('when updated_since is given, then exactly the records updated at or after it are listed', async () => {
      const { caller, ids } = await withRecords(list, 3);
      await sleep(20);
      const since = new Date();
      await sleep(20);
      const changed = ids[1] ?? '';
      await caller.update(changed);
      const { data, meta } = pageOf(await caller.list(`updated_since=${since.toISOString()}`));
      expect(data.map((record) => record.id)).toEqual([changed]);
      expect(meta.total).toBe(1);
      const earlier = pageOf(await caller.list(`updated_since=${encodeURIComponent('2000-01-01T01:00:00+01:00')}`));
      expect(earlier.data.map((record) => record.id)).toEqual(await everything(caller));
    });

    it('when updated_since is a local time without an offset, then it is a 400 VALIDATION_ERROR naming it', async () => {
      const caller = await list.arrange();
      const reply = await caller.list('updated_since=2026-03-08T07:30:00');
      expect([reply.status, reply.body.code, reply.body.error]).toEqual([
        400,
        'VALIDATION_ERROR',
        expect.stringMatching(/^updated_since /),
      ]);
    });

    it('when cursor and offset come together (even offset=0), then it is a 400 VALIDATION_ERROR naming offset', async () => {
      const { caller } = await withRecords(list, 3);
      const cursor = encodeURIComponent(pageOf(await caller.list('limit=1')).meta.next_cursor ?? '');
      for (const offset of ['0', '1']) {
        const reply = await caller.list(`limit=1&offset=${offset}&cursor=${cursor}`);
        expect([reply.status, reply.body.code, reply.body.error]).toEqual([
          400,
          'VALIDATION_ERROR',
          'offset cannot be given together with cursor',
        ]);
      }
    });

    it('when a cursor comes with other filters, from another organization, malformed or edited, then it is a 400 CURSOR_INVALID', async () => {
      const { caller } = await withRecords(list, 3);
      const other = await list.arrange();
      const issued = pageOf(await caller.list('limit=1')).meta.next_cursor ?? '';
      const cursor = encodeURIComponent(issued);
      // The same cursor with the last sort key (the record's id) pointing at another record: never issued.
      const payload = JSON.parse(Buffer.from(issued, 'base64url').toString('utf8')) as { k: string[] };
      payload.k[payload.k.length - 1] = '00000000-0000-4000-8000-000000000000';
      const edited = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const refusals = [
        await caller.list(`limit=1&cursor=${cursor}&${list.otherFilter}`),
        await caller.list(`limit=1&cursor=${cursor}&updated_since=2000-01-01T00:00:00Z`),
        await other.list(`limit=1&cursor=${cursor}`),
        await caller.list('limit=1&cursor=not-a-cursor'),
        await caller.list('limit=1&cursor='),
        await caller.list(`limit=1&cursor=${cursor.slice(0, -4)}`),
        await caller.list(`limit=1&cursor=${edited}`),
      ];
      expect(refusals.map((reply) => [reply.status, reply.body.code])).toEqual(refusals.map(() => [400, 'CURSOR_INVALID']));
      expect((await caller.list(`limit=1&cursor=${cursor}`)).status).toBe(200);
    });
  });
}

/**
 * "Paging by cursor never skips or repeats a record of the list's order, whatever is inserted meanwhile": records
 * are inserted before and after the cursor between pages and while a page is read; every record that was there
 * when the walk began comes exactly once, in order, and so does every one inserted ahead of the cursor.
 */
export function describeCursorWalkUnderInserts(lists: PagedList<OrderedListCaller>[]): void {
  describe.each(lists)('$name walked by cursor while records are inserted', (list) => {
    it('when records are inserted before and after the cursor between pages, then none is skipped or repeated', async () => {
      const { caller } = await withRecords(list, 8);
      const original = await everything(caller);
      const ahead: string[] = [];
      const behind: string[] = [];
      const { ids: walked } = await walk(caller, 3, async (last) => {
        behind.push(await caller.insertNear(last, 'before'));
        ahead.push(await caller.insertNear(last, 'after'));
      });
      expectWalk(walked, original, ahead, behind, await everything(caller));
    });

    it('when records are inserted while each page is being read, then none of those there before is skipped or repeated', async () => {
      const { caller } = await withRecords(list, 8);
      const original = await everything(caller);
      let last: Listed | undefined;
      const pages: Listed[][] = [];
      let cursor: string | null = null;
      do {
        const query: string = `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const near = last;
        const [reply] = await Promise.all([
          caller.list(query),
          near ? caller.insertNear(near, 'before') : caller.create(),
          near ? caller.insertNear(near, 'after') : caller.create(),
        ]);
        const page = pageOf(reply);
        pages.push(page.data);
        last = page.data.at(-1);
        cursor = page.meta.next_cursor;
      } while (cursor && pages.length < 100);
      const walked = pages.flat().map((record) => record.id);
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked.filter((id) => original.includes(id))).toEqual(original);
      const final = await everything(caller);
      expect(walked).toEqual(final.filter((id) => walked.includes(id)));
    });
  });
}

function expectWalk(walked: string[], original: string[], ahead: string[], behind: string[], final: string[]): void {
  expect(new Set(walked).size).toBe(walked.length);
  expect(walked.filter((id) => original.includes(id))).toEqual(original);
  expect(walked).toEqual(expect.arrayContaining(ahead));
  expect(walked.filter((id) => behind.includes(id))).toEqual([]);
  // The walk is the list's order as it stands at the end, less what was inserted behind the cursor.
  expect(walked).toEqual(final.filter((id) => !behind.includes(id)));
}
