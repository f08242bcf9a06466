// `npm run bench:growth`: how each hot path's cost grows with the data it must read. For every curve (CURVES, of
// bench/growth/) and each of its sizes: seed up to that size, then measure the request through the gateway
// at 1 connection (latency) and at BENCH_CONNECTIONS (throughput, Postgres CPU per request). Between
// consecutive sizes, the growth exponent log(cost ratio) / log(size ratio): 1 is linear, 2 quadratic, ~0 flat.
// Writes bench/results/growth.json. Own database (dropped at the end: 10⁶ bookings are not left behind).
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { existsSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { context, ownStack } = await import('./lib/target.mjs');
const { dropDatabase } = await import('@app/dev-stack');
const { measureCurve } = await import('./growth/measure-curve.mjs');
const { printCurves } = await import('./growth/report.mjs');

const CURVES = ['slots', 'slots-seats', 'bookings', 'events', 'categories'];
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;

// A run narrowed by BENCH_ONLY keeps the file's other curves where they stood (each with the time it was measured), so
// measuring one curve again neither erases nor reorders the rest.
function merged(file, measured) {
  if (!only || !existsSync(file)) return measured;
  const previous = JSON.parse(readFileSync(file, 'utf8'));
  const fresh = new Map(measured.map((curve) => [curve.name, curve]));
  const curves = previous.curves.map((curve) => fresh.get(curve.name) ?? { at: previous.at, ...curve });
  return [...curves, ...measured.filter((curve) => !previous.curves.some((old) => old.name === curve.name))];
}

async function main() {
  const databaseUrl = process.env.GROWTH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_bench_growth';
  const target = await ownStack({ databaseUrl, port: Number(process.env.GROWTH_PORT ?? 3400), portVariable: 'GROWTH_PORT' });
  const curves = [];
  let ctx;
  try {
    ctx = await context(target);
    for (const file of CURVES) {
      const curve = (await import(`./growth/${file}.mjs`)).default;
      if (!only || only.test(curve.name)) curves.push(await measureCurve(curve, ctx, { connections: CONNECTIONS, duration: DURATION }));
    }
  } finally {
    await ctx?.close();
    await target.stop();
    if (process.env.GROWTH_KEEP_DATABASE !== '1') await dropDatabase(databaseUrl);
  }
  printCurves(curves, { connections: CONNECTIONS, duration: DURATION });
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  const file = join(import.meta.dirname, 'results', 'growth.json');
  const at = new Date().toISOString();
  const measured = curves.map((curve) => ({ ...curve, at }));
  writeFileSync(
    file,
    `${JSON.stringify({ at, connections: CONNECTIONS, duration_s: DURATION, curves: merged(file, measured) }, null, 2)}\n`,
  );
  console.log(`\nWritten to ${file}`);
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
