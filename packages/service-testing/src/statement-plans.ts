import type pg from 'pg';
import { expect } from 'vitest';

/** A statement as it was sent, and Postgres' plan for it with the same values. */
export interface StatementPlan {
  text: string;
  plan: string;
}

/**
 * The plans of the statements matching `pattern` that `work` sends through `pool` (the service's own, so the list
 * goes through its route and repository as a request sends it), explained afterwards with the values they were
 * sent with. The statements still run on the real database; `pool.query` is only listened to while `work` runs.
 */
export async function statementPlans(pool: pg.Pool, pattern: RegExp, work: () => Promise<unknown>): Promise<StatementPlan[]> {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  const listening = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    if (pattern.test(text)) sent.push({ text, values: (typeof config === 'string' ? values : config.values) ?? [] });
    return query(config, values);
  };
  Object.assign(pool, { query: listening });
  try {
    await work();
  } finally {
    Reflect.deleteProperty(pool, 'query');
  }
  const plans: StatementPlan[] = [];
  for (const { text, values } of sent) {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    plans.push({ text, plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
  }
  return plans;
}

/** A list's answer, as far as listReadPlans reads it. */
interface ListBody {
  data: unknown[];
  meta: { next_cursor: string | null };
}

/**
 * The plans of a list's statement (`statement` matches it) when it is read with `updated_since=since` and when its
 * second page is read by cursor, `limit` records a page, with `filter` (a query of the list's own, or '') on both.
 * `list` GETs the list through the service with a query and answers its body (a 200).
 */
async function listReadPlans(options: {
  pool: pg.Pool;
  statement: RegExp;
  list: (query: string) => Promise<ListBody>;
  since: string;
  filter?: string;
  limit?: number;
}): Promise<{ updatedSince: string; cursor: string }> {
  const { pool, statement, list, since, filter = '', limit = 20 } = options;
  const only = async (query: string): Promise<string> => {
    const plans = await statementPlans(pool, statement, () => list(query));
    if (plans.length !== 1) throw new Error(`${plans.length} statements matched ${String(statement)}, not one`);
    return plans[0]?.plan ?? '';
  };
  const first = await list(`limit=${limit}${filter}`);
  if (!first.meta.next_cursor) throw new Error('the first page has no next_cursor: seed more records');
  return {
    updatedSince: await only(`updated_since=${encodeURIComponent(since)}${filter}`),
    cursor: await only(`limit=${limit}&cursor=${encodeURIComponent(first.meta.next_cursor)}${filter}`),
  };
}

/**
 * Both reads of listReadPlans go through indexes: no sequential scan (`scan`; any by default, or one of a table: a
 * list that joins a small table may scan that), `index` serving `updated_since`, and the cursor's keyset condition
 * (`keyset`, as the plan prints it, e.g. `ROW(created_at, id) > ROW(`) in an Index Cond. Also checks the seed: three
 * records changed since `since`.
 */
export async function expectIndexedListReads(
  options: Parameters<typeof listReadPlans>[0] & { index: string; keyset: string; scan?: RegExp },
): Promise<void> {
  const { index, keyset, scan = /Seq Scan/, ...read } = options;
  expect((await read.list(`updated_since=${read.since}${read.filter ?? ''}`)).data).toHaveLength(3);
  const plans = await listReadPlans(read);
  expect(plans.updatedSince).not.toMatch(scan);
  expect(plans.updatedSince).toContain(index);
  expect(plans.cursor).not.toMatch(scan);
  expect(plans.cursor).toMatch(new RegExp(`Index Cond: .*\\(${keyset.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 's'));
}
