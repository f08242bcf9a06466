// Where a scenario's Postgres time goes: the statements of the stack's database over a run, from pg_stat_statements,
// as calls and milliseconds per request. The extension must be preloaded, which takes a Postgres restart:
//   ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements';   then restart Postgres.
// Without it the breakdown is left out (the bench says so once). Differences of two snapshots, never a reset: other
// databases' statistics on the machine stay as they were.

const TOP = 5;

let unavailable = null;

/** The statements of the stack's database so far, by query id. Null without one, or without pg_stat_statements. */
async function snapshot(ctx) {
  // The bare Fastify baseline has no stack behind it, so no database to read.
  if (unavailable || !ctx.sql) return null;
  try {
    await ctx.sql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const rows = await ctx.sql(
      `SELECT s.queryid::text AS id, s.query, s.calls::float8 AS calls, s.total_exec_time AS ms
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1`,
      [ctx.database],
    );
    return new Map(rows.map((row) => [row.id, row]));
  } catch (error) {
    unavailable = error.message;
    console.warn(`\n(no Postgres statement breakdown: ${unavailable})`);
    return null;
  }
}

/** Starts measuring; `perRequest(n)` then gives the top statements by time: calls and ms per request, ms per call. */
export async function statementMeter(ctx) {
  const before = await snapshot(ctx);
  return {
    async perRequest(requests) {
      if (!before || !requests) return null;
      const after = await snapshot(ctx);
      if (!after) return null;
      const spent = [...after.values()]
        .map((row) => ({ row, calls: row.calls - (before.get(row.id)?.calls ?? 0), ms: row.ms - (before.get(row.id)?.ms ?? 0) }))
        // Not the bench's own snapshots, and not what rounds to nothing per request (a relay's idle poll).
        .filter(({ row, calls, ms }) => calls > 0 && !row.query.includes('pg_stat_statements') && ms / requests >= 0.001)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, TOP);
      return spent.map(({ row, calls, ms }) => ({
        statement: row.query.replace(/\s+/g, ' ').slice(0, 70),
        calls_per_request: +(calls / requests).toFixed(2),
        ms_per_request: +(ms / requests).toFixed(3),
        ms_per_call: +(ms / calls).toFixed(3),
      }));
    },
  };
}
