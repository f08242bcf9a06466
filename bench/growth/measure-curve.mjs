import { measureRun } from '../lib/measure.mjs';

/** An exponent up to this is linear: two runs of the same size differ by a few percent on a shared machine. */
const LINEAR = 1.1;

/** Seeds and measures each size of `curve` in turn; returns its points, the exponents between them and a verdict. */
export async function measureCurve(curve, ctx, { connections, duration }) {
  const points = [];
  let state;
  for (const size of curve.sizes) {
    process.stdout.write(`seeding: ${curve.name}, ${size} ... `);
    const seededAt = Date.now();
    state = await curve.seed(ctx, size, state);
    // The seeded pages written out now, not by the checkpointer during the measurement (its CPU counts as Postgres').
    await ctx.sql('CHECKPOINT');
    const seed_s = +((Date.now() - seededAt) / 1000).toFixed(1);
    console.log(`${seed_s} s`);
    // A curve may measure as another organization (events: one per size).
    const target = { ...ctx, headers: state.headers ?? ctx.headers };
    const label = `${curve.name}, ${size}`;
    const one = await measureRun(`${label}, 1 connection`, target, curve.requests(state), { connections: 1, duration });
    const many = await measureRun(`${label}, ${connections} connections`, target, curve.requests(state), { connections, duration });
    points.push({
      size,
      // At one connection the mean latency, to the microsecond (autocannon's percentiles are whole milliseconds).
      mean_ms: +((one.result.finish - one.result.start) / one.result.requests.total).toFixed(3),
      p50_ms: one.summary.p50_ms,
      p99_ms: one.summary.p99_ms,
      rps: many.summary.rps,
      postgres_cpu_ms: many.summary.cpu_ms_per_request?.postgres ?? null,
      cpu_ms_per_request: many.summary.cpu_ms_per_request,
      failed: one.summary.non2xx + one.summary.errors + many.summary.non2xx + many.summary.errors,
      seed_s,
    });
  }
  const exponents = points.slice(1).map((point, i) => growth(points[i], point));
  return { name: curve.name, x_label: curve.x_label, points, exponents, verdict: verdictOf(points, exponents) };
}

/** Exponents of the cost between two sizes: latency, time per request at load (1 / rps), Postgres CPU per request. */
function growth(a, b) {
  const exponent = (costA, costB) => (costA > 0 && costB > 0 ? +(Math.log(costB / costA) / Math.log(b.size / a.size)).toFixed(2) : null);
  return {
    from: a.size,
    to: b.size,
    latency: exponent(a.mean_ms, b.mean_ms),
    load: exponent(1 / a.rps, 1 / b.rps),
    postgres_cpu: exponent(a.postgres_cpu_ms, b.postgres_cpu_ms),
  };
}

function verdictOf(points, exponents) {
  if (points.some((point) => point.failed > 0)) return 'failed requests: see points';
  const worst = Math.max(...exponents.flatMap((e) => [e.latency, e.load]).filter((e) => e !== null));
  return worst <= LINEAR ? '≤ linear' : `faster than linear (exponent ${worst})`;
}
