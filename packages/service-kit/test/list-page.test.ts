import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListMeta } from '@app/contracts';
import { AppError, listPage, pageOfIds, SqlParams, type ListDefinition, type ListQuery } from '../src/index.js';
import { kitSchema } from './support/kit-env.js';

const OLDEST_FIRST: ListDefinition = {
  name: 'notes',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};
const NEWEST_FIRST: ListDefinition = { name: 'notes', order: { ...OLDEST_FIRST.order, direction: 'DESC' } };

describe('ListPage and pageOfIds (cursor and offset paging of a list)', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  const organizationId = randomUUID();
  const otherOrganization = randomUUID();

  /** A note at `at` (microseconds kept), or now; ids random, so ties on created_at are broken by id. */
  const insert = async (at: string, owner = organizationId, topic = 'a'): Promise<string> => {
    const id = randomUUID();
    await schema.pool.query('INSERT INTO notes (id, organization_id, topic, created_at) VALUES ($1, $2, $3, $4::timestamptz)', [
      id,
      owner,
      topic,
      at,
    ]);
    return id;
  };

  const page = async (
    list: ListDefinition,
    query: Partial<ListQuery>,
    filters: Record<string, unknown> = { topic: 'a' },
    owner = organizationId,
  ) => {
    const request = listPage(list, { organizationId: owner, filters }, { limit: 3, ...query });
    const params = new SqlParams();
    const conditions = [`t.organization_id = ${params.add(owner)}::uuid`, `t.topic = ${params.add(filters.topic)}`];
    return pageOfIds(schema.pool, request, { table: 'notes', conditions, params });
  };

  const ordered = async (direction: 'ASC' | 'DESC'): Promise<string[]> => {
    const { rows } = await schema.pool.query<{ id: string }>(
      `SELECT id::text FROM notes WHERE organization_id = $1::uuid AND topic = 'a' ORDER BY created_at ${direction}, id ${direction}`,
      [organizationId],
    );
    return rows.map((row) => row.id);
  };

  const codeOf = async (work: Promise<unknown>): Promise<string | undefined> => {
    try {
      await work;
      return undefined;
    } catch (error) {
      if (error instanceof AppError) return `${error.status} ${error.code}`;
      throw error;
    }
  };

  beforeAll(async () => {
    schema = await kitSchema();
    await schema.pool.query(`CREATE TABLE notes (
      id uuid PRIMARY KEY, organization_id uuid NOT NULL, topic text NOT NULL,
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
    // Three notes within one millisecond, two at the very same microsecond: the cursor must tell them apart.
    for (const at of ['2026-01-01T00:00:00.000100Z', '2026-01-01T00:00:00.000200Z', '2026-01-01T00:00:00.000200Z']) await insert(at);
    for (let day = 2; day <= 8; day += 1) await insert(`2026-01-0${day}T00:00:00Z`);
    await insert('2026-01-05T00:00:00Z', otherOrganization);
  });
  afterAll(() => schema.close());

  it.each([
    ['oldest first', OLDEST_FIRST, 'ASC'],
    ['newest first', NEWEST_FIRST, 'DESC'],
  ] as const)(
    'when a list is walked by cursor (%s), then every row comes once, in order, and the last page has no cursor',
    async (_name, list, direction) => {
      const seen: string[] = [];
      const metas: ListMeta[] = [];
      let cursor: string | undefined;
      do {
        const { ids, meta } = await page(list, cursor === undefined ? {} : { cursor });
        seen.push(...ids);
        metas.push(meta);
        cursor = meta.next_cursor ?? undefined;
      } while (cursor !== undefined);
      expect(seen).toEqual(await ordered(direction));
      expect(metas.map((meta) => [meta.offset, meta.hasMore, meta.total])).toEqual([
        [0, true, 10],
        [3, true, 10],
        [6, true, 10],
        [9, false, 10],
      ]);
      expect(metas.at(-1)?.next_cursor).toBeNull();
    },
  );

  it('when rows are inserted between pages before and after the cursor, then the walk neither skips nor repeats a row', async () => {
    const before = await ordered('ASC');
    const first = await page(OLDEST_FIRST, { limit: 4 });
    // Before the cursor (ties its created_at, and earlier), and after it: only the later ones are still ahead.
    await insert('2026-01-01T00:00:00.000150Z');
    await insert('2025-12-31T00:00:00Z');
    const ahead = [await insert('2026-01-07T12:00:00Z'), await insert('2026-01-09T00:00:00Z')];
    const rest: string[] = [];
    let cursor = first.meta.next_cursor;
    while (cursor !== null) {
      const next = await page(OLDEST_FIRST, { limit: 4, cursor });
      rest.push(...next.ids);
      cursor = next.meta.next_cursor;
    }
    const walked = [...first.ids, ...rest];
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.filter((id) => before.includes(id))).toEqual(before);
    expect(rest).toEqual(expect.arrayContaining(ahead));
    expect(walked).toEqual((await ordered('ASC')).filter((id) => walked.includes(id)));
  });

  it('when an offset page is read, then its next_cursor continues right after it', async () => {
    const all = await ordered('ASC');
    const byOffset = await page(OLDEST_FIRST, { offset: 2 });
    expect(byOffset.ids).toEqual(all.slice(2, 5));
    const next = await page(OLDEST_FIRST, { cursor: byOffset.meta.next_cursor ?? '' });
    expect(next.ids).toEqual(all.slice(5, 8));
    expect(next.meta.offset).toBe(5);
    const pastTheEnd = await page(OLDEST_FIRST, { offset: 1000 });
    expect(pastTheEnd).toEqual({ ids: [], meta: { total: all.length, limit: 3, offset: 1000, hasMore: false, next_cursor: null } });
  });

  it('when updated_since is given, then only rows updated at or after it are listed, and it is one of the filters', async () => {
    const [first, second] = await ordered('ASC');
    const { rows } = await schema.pool.query<{ at: Date }>(
      `UPDATE notes SET updated_at = now() + interval '1 hour' WHERE id = $1 RETURNING updated_at AS at`,
      [second],
    );
    const since = rows[0]?.at ?? new Date();
    const changed = await page(OLDEST_FIRST, { updated_since: since });
    expect(changed.ids).toEqual([second]);
    expect(changed.ids).not.toContain(first);
    const walk = await page(OLDEST_FIRST, { limit: 1 });
    expect(await codeOf(page(OLDEST_FIRST, { cursor: walk.meta.next_cursor ?? '', updated_since: since }))).toBe('400 CURSOR_INVALID');
  });

  it('when a cursor is used with other filters, another order, or by another organization, then it is 400 CURSOR_INVALID', async () => {
    const { meta } = await page(OLDEST_FIRST, {});
    const cursor = meta.next_cursor ?? '';
    expect(await codeOf(page(OLDEST_FIRST, { cursor }, { topic: 'b' }))).toBe('400 CURSOR_INVALID');
    expect(await codeOf(page(NEWEST_FIRST, { cursor }))).toBe('400 CURSOR_INVALID');
    expect(await codeOf(page({ ...OLDEST_FIRST, name: 'other-list' }, { cursor }))).toBe('400 CURSOR_INVALID');
    expect(await codeOf(page(OLDEST_FIRST, { cursor }, { topic: 'a' }, otherOrganization))).toBe('400 CURSOR_INVALID');
    expect(await codeOf(page(OLDEST_FIRST, { cursor }))).toBeUndefined();
  });

  const forged = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['another version', forged({ v: 2, s: 'x', k: ['2026-01-01T00:00:00.000000Z', randomUUID()] })],
    ['too few keys', forged({ v: 1, s: 'x', k: [randomUUID()] })],
    ['a date that does not exist', forged({ v: 1, s: 'x', k: ['2026-13-45T00:00:00.000000Z', randomUUID()] })],
    ['an instant in milliseconds', forged({ v: 1, s: 'x', k: ['2026-01-01T00:00:00.000Z', randomUUID()] })],
    ['an id that is no uuid', forged({ v: 1, s: 'x', k: ['2026-01-01T00:00:00.000000Z', "x'; DROP TABLE notes; --"] })],
    ['far too long', 'a'.repeat(2000)],
  ])('when the cursor is %s, then it is 400 CURSOR_INVALID before any statement', async (_case, cursor) => {
    expect(await codeOf(page(OLDEST_FIRST, { cursor }))).toBe('400 CURSOR_INVALID');
  });
});
