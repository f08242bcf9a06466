// One autocannon run of a scenario's requests through the gateway, summarized, with the CPU each process spent.
import autocannon from 'autocannon';
import { cpuMeter } from '../process-cpu.mjs';
import { loadBetween, sampleLoad } from './load-sampler.mjs';
import { statementMeter } from './pg-statements.mjs';
import { settle } from './settle.mjs';
import { steadyLoad } from './steady-load.mjs';

// Every run, of `npm run bench` and of `npm run bench:growth`, waits until the stack is idle again (settle.mjs): what
// the runs or the seeding before it left to do is not its load. BENCH_SETTLE=0 measures straight away.
const SETTLE = process.env.BENCH_SETTLE !== '0';

/** The wait of settle.mjs, said when it was long or gave up; undefined when BENCH_SETTLE=0. */
async function settleFirst(ctx) {
  if (!SETTLE) return undefined;
  const settled = await settle(ctx);
  if (!settled.settled)
    console.warn(`  the stack did not settle in ${settled.waited_s} s (${settled.cpu_share} of a core): measuring anyway`);
  else if (settled.waited_s > 2) console.log(`  (waited ${settled.waited_s} s for the stack to settle)`);
  return settled;
}

function toAutocannonRequests(requests, ctx) {
  return requests.map(({ path, body, headers, ...rest }) => ({
    ...rest,
    path,
    headers: { ...ctx.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  }));
}

/**
 * `options` are autocannon's, `connections` and `duration` included (the callers' defaults differ). With
 * `overallRate`, the requests go evenly spaced at that rate instead (steady-load.mjs: autocannon's rate is bursty),
 * and with its `goalMs` the requests slower than it are counted and set beside what the machine did meanwhile
 * (`over_goal.load`, load-sampler.mjs).
 */
export async function measure(name, ctx, requests, options) {
  if (!options.overallRate) return (await measureRun(name, ctx, requests, options)).summary;
  const settled = await settleFirst(ctx);
  process.stdout.write(`running: ${name} ... `);
  const statements = await statementMeter(ctx);
  const meter = cpuMeter({ database: ctx.database });
  const { connections, duration, overallRate: rate, goalMs } = options;
  const load = sampleLoad({ database: ctx.database });
  const summary = {
    scenario: name,
    ...(await steadyLoad({
      url: ctx.baseUrl,
      requests: toAutocannonRequests(requests, ctx),
      rate,
      duration,
      connections,
      label: name,
      goalMs,
    })),
    settle: settled,
  };
  const samples = load.stop();
  const densest = summary.over_goal?.densest_second;
  if (densest) densest.load = loadBetween(samples, densest.from_epoch_ms, densest.from_epoch_ms + 1000);
  summary.load = loadBetween(samples, 0, Infinity);
  // The meters ran through the warm-up too: its requests count.
  const served = summary.requests + summary.warmup_requests;
  summary.cpu_ms_per_request = meter.perRequest(served);
  summary.pg_statements = await statements.perRequest(served);
  console.log(`${summary.rps} req/s`);
  return summary;
}

/** The summary and autocannon's raw result (its start and finish give a mean finer than its whole-ms percentiles). */
export async function measureRun(name, ctx, requests, options) {
  const settled = await settleFirst(ctx);
  process.stdout.write(`running: ${name} ... `);
  // Only this stack's Postgres backends count (ctx.database): other databases on the machine are not its cost.
  const statements = await statementMeter(ctx);
  const meter = cpuMeter({ database: ctx.database });
  const result = await autocannon({ url: ctx.baseUrl, requests: toAutocannonRequests(requests, ctx), ...options });
  const summary = { ...summarize(name, result), settle: settled };
  summary.cpu_ms_per_request = meter.perRequest(result.requests.total);
  summary.pg_statements = await statements.perRequest(result.requests.total);
  console.log(`${summary.rps} req/s`);
  return { summary, result };
}

function summarize(name, result) {
  return {
    scenario: name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    p99_9_ms: result.latency.p99_9,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count])),
  };
}
