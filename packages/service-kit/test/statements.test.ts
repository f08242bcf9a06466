import { afterAll, describe, expect, inject, it } from 'vitest';
import { createPool, isoInstant, isoInstantSql, namedStatement, pageClause, SqlParams } from '../src/index.js';
import { silentLog } from './support/kit-env.js';

// One connection, so every call meets the statements that earlier calls prepared.
const pool = createPool(inject('databaseUrl'), { max: 1, log: silentLog });
afterAll(() => pool.end());

describe('named statements', () => {
  it('when filters are appended, then each value gets the next placeholder', () => {
    const params = new SqlParams();
    expect([params.add('a'), params.add(2), params.add(null)]).toEqual(['$1', '$2', '$3']);
    expect(params.values).toEqual(['a', 2, null]);
  });

  it('when one text runs with different values, then the connection prepares it once and answers each call', async () => {
    const text = 'SELECT $1::int * 2 AS doubled /* statements.test */';
    const answers = [];
    for (const value of [1, 2, 3]) answers.push((await pool.query<{ doubled: number }>(namedStatement(text, [value]))).rows[0]?.doubled);
    expect(answers).toEqual([2, 4, 6]);
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [text]);
    expect(rows).toEqual([{ name: namedStatement(text, []).name }]);
    expect(namedStatement(`${text} `, []).name).not.toBe(rows[0]?.name);
  });
});

describe('pageClause', () => {
  it.each([
    [50, 0, 'LIMIT 50', []],
    [7, 0, 'LIMIT 10', []],
    [51, 0, 'LIMIT 100', []],
    [200, 0, 'LIMIT 200', []],
    [20, 40, 'LIMIT 20 OFFSET $1::int', [40]],
    [201, 3, 'LIMIT $1::int OFFSET $2::int', [201, 3]],
  ])('when %i rows from offset %i are asked for, then the page is "%s" with parameters %j', (limit, offset, sql, values) => {
    const params = new SqlParams();
    expect(pageClause(limit, offset, params)).toBe(sql);
    expect(params.values).toEqual(values);
  });

  it('when a page of an odd size is read, then the rows kept are the first of the usual page above it', async () => {
    const page = async (limit: number, offset: number) => {
      const params = new SqlParams();
      const text = `SELECT g FROM generate_series(1, 1000) AS g ORDER BY g ${pageClause(limit, offset, params)}`;
      const { rows } = await pool.query<{ g: number }>(namedStatement(text, params.values));
      return rows.slice(0, limit).map((row) => row.g);
    };
    expect(await page(3, 0)).toEqual([1, 2, 3]);
    expect(await page(3, 995)).toEqual([996, 997, 998]);
    expect(await page(30, 990)).toEqual([991, 992, 993, 994, 995, 996, 997, 998, 999, 1000]);
  });
});

describe('isoInstantSql', () => {
  it.each(['1900-01-01T00:00:00.000Z', '2026-03-29T01:30:00.500Z', '2026-12-31T23:59:59.999Z', '9998-12-31T12:00:00.001Z'])(
    'when Postgres formats %s, then it writes what Date#toISOString writes',
    async (instant) => {
      const { rows } = await pool.query<{ text: string }>(`SELECT ${isoInstantSql('$1::timestamptz')} AS text`, [instant]);
      expect(rows[0]?.text).toBe(new Date(instant).toISOString());
      expect(isoInstant(new Date(instant))).toBe(rows[0]?.text);
    },
  );

  it('when the instant has microseconds, then they are cut to milliseconds, as a Date read from Postgres cuts them', async () => {
    const { rows } = await pool.query<{ text: string; parsed: Date }>(
      `SELECT ${isoInstantSql("'2026-01-01 00:00:59.999600+00'::timestamptz")} AS text, '2026-01-01 00:00:59.999600+00'::timestamptz AS parsed`,
    );
    expect(rows[0]?.text).toBe('2026-01-01T00:00:59.999Z');
    expect(rows[0]?.parsed.toISOString()).toBe(rows[0]?.text);
  });
});
