import { afterAll, describe, expect, inject, it } from 'vitest';
import { createPool, isoInstant, isoInstantSql, namedStatement, SqlParams } from '../src/index.js';
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
