/** The curves as one table: a row per size, with the exponents from the size before. */
export function printCurves(curves, { connections, duration }) {
  const columns = ['curve', 'size', 'mean_ms', 'p50_ms', 'p99_ms', 'rps', 'pg_cpu_ms', 'exp_latency', 'exp_load', 'exp_pg_cpu'];
  const rows = curves.flatMap((curve) =>
    curve.points.map((point, i) => {
      const step = curve.exponents[i - 1];
      return [
        curve.name,
        point.size,
        point.mean_ms,
        point.p50_ms,
        point.p99_ms,
        point.rps,
        point.postgres_cpu_ms,
        step?.latency,
        step?.load,
        step?.postgres_cpu,
      ];
    }),
  );
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => String(row[i] ?? '').length)));
  const line = (cells) => cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join('  ');
  console.log(`\nLatency at 1 connection, rps and Postgres CPU per request at ${connections} connections, ${duration} s each\n`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('');
  for (const curve of curves) console.log(`${curve.name}: ${curve.verdict}`);
}
