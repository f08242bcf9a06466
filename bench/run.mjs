// `npm run bench`: starts the stack on its own database (or targets BENCH_URL), seeds data, runs every
// scenario of bench/scenarios/*.mjs plus baselines measured in the same run (a bare Fastify route, the
// gateway's trivial route, the bare proxy of bench/ceiling and the gateway's framework with no feature), and — for
// scenarios marked `ceiling` — the same requests against bench/ceiling's bare proxy and service (BENCH_CEILING=0 skips
// them); a scenario with `relativeTo` is also compared with the named scenario of the same run (`vs_relative`); every
// scenario (unless `steady: false`) runs again at a steady half of its maximum rate, against a p99 goal
// (`steadyP99GoalMs`, 25 ms by default). A scenario's
// `report(state, ctx)` adds numbers of its own (a table per `measuresTable`), and `teardown(state, ctx)` undoes what its
// seeding set up. Prints the tables and writes bench/results/latest.json. Numbers, never pass/fail: a benchmark does not
// fail on timing.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { existsSync, mkdirSync, readdirSync, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { availableParallelism } = await import('node:os');
const { pathToFileURL } = await import('node:url');
const { default: Fastify } = await import('fastify');
const { context, existingTarget, ownStack } = await import('./lib/target.mjs');
const lib = await import('./lib/measure.mjs');
const { startBareStack } = await import('./ceiling/bare-stack.mjs');
const { describeDamon, describeMachine, watchMachine } = await import('./lib/machine.mjs');
const { readBenchEnv } = await import('../scripts/script-env.mjs');

const env = readBenchEnv();
const DURATION = env.BENCH_DURATION;
const CONNECTIONS = env.BENCH_CONNECTIONS;
const CEILING = env.BENCH_CEILING !== '0';
const only = env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY, 'i') : null;
// Latency under a steady load: each scenario again at this share of the rate it just reached (BENCH_STEADY=0 skips).
const STEADY_SHARE = 0.5;
const STEADY = env.BENCH_STEADY !== '0';
// The whole set this many times on one stack: how often each goal holds, the steady tails' misses explained.
const REPEAT = Math.max(1, env.BENCH_REPEAT);
const BARE_PROXY_TRIVIAL = 'ceiling: bare proxy → bare service, trivial route';
const FRAMEWORK_PROXY_TRIVIAL = 'floor: Fastify + @fastify/http-proxy → bare service, trivial route';
/** The p99 a scenario must keep at the steady rate, unless it names its own (booking creation: 50 ms). */
const STEADY_P99_GOAL_MS = 25;
/** The gateway in front of the bare service, started in the first round and measured again in each. */
let gatewayUrl;
/** Other processes (neither the stack nor this client) holding this many cores make a steady miss the machine's. */
const MACHINE_SHARED_CORES = 0.5;

async function main() {
  const machine = watchMachine();
  for (const monitor of machine.monitors)
    console.warn(
      `note: ${describeDamon(monitor)}; its wake-ups take a core, which on a machine of few cores stalls the stack and shows in the steady p99s (docs/benchmarks.md)`,
    );
  const target = env.BENCH_URL
    ? await existingTarget()
    : await ownStack({ databaseUrl: env.BENCH_DATABASE_URL, port: env.BENCH_PORT, portVariable: 'BENCH_PORT' });
  const ctx = await context(target);
  const rounds = [];
  let bare = null;
  try {
    if (CEILING)
      bare = await startBareStack({
        databaseUrl: target.databaseUrl,
        natsUrl: target.natsUrl,
        organizationId: ctx.organizationId,
        port: target.port + 90,
      });
    for (let round = 1; round <= REPEAT; round += 1) {
      if (REPEAT > 1) console.log(`\nround ${round} of ${REPEAT}`);
      rounds.push(await runRound(ctx, bare, target));
    }
  } finally {
    await bare?.stop();
    await ctx.close();
    await target.stop();
  }
  rounds.forEach((results, index) => report(results, REPEAT > 1 ? `Round ${index + 1} of ${REPEAT}` : null));
  if (REPEAT > 1) reportRounds(rounds);
  const machineReport = machine.report();
  for (const sentence of describeMachine(machineReport)) console.log(`\nMachine: ${sentence}`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  const file = join(import.meta.dirname, 'results', 'latest.json');
  const measured = REPEAT > 1 ? { rounds } : { results: rounds[0] };
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, duration_s: DURATION, machine: machineReport, ...measured }, null, 2)}\n`,
  );
  console.log(`\nWritten to ${file}`);
}

/** The baselines and every scenario once (BENCH_REPEAT runs this so many times on one stack): a round's rows. */
async function runRound(ctx, bare, target) {
  const results = [];
  results.push(await bareFastifyBaseline());
  results.push(await measure('baseline: gateway → authenticated trivial route', ctx, [{ method: 'GET', path: '/api/v1/ping/events' }]));
  if (bare) {
    const bareProxy = await measure(BARE_PROXY_TRIVIAL, { ...ctx, baseUrl: bare.url }, [{ method: 'GET', path: '/ping' }]);
    results.push(bareProxy);
    // What the gateway's framework alone keeps of the bare proxy's rate: the part of the gap no feature accounts for.
    const framework = await measure(FRAMEWORK_PROXY_TRIVIAL, { ...ctx, baseUrl: bare.frameworkUrl }, [{ method: 'GET', path: '/ping' }]);
    results.push({ ...framework, relative_to: BARE_PROXY_TRIVIAL });
    // The gateway's own cost: the same bare service behind it, with every feature on (auth, limits, logs, metrics),
    // against the framework's floor (issue 51: >= 0.85 of it).
    if (target.startGateway) {
      gatewayUrl ??= await target.startGateway(target.port + 95, { EVENTS_URL: bare.serviceUrl });
      const own = await measure('gateway → bare service, authenticated trivial route', { ...ctx, baseUrl: gatewayUrl }, [
        { method: 'GET', path: '/api/v1/ping/events' },
      ]);
      results.push({ ...own, relative_to: FRAMEWORK_PROXY_TRIVIAL, goal: '>= 0.85 of the floor' });
    }
  }
  for (const scenario of await loadScenarios()) {
    if (only && !only.test(scenario.name)) continue;
    // Every state seeded (the ceiling and steady runs seed again), so `teardown` undoes each.
    const seeded = [];
    const seed = async (c) => {
      const state = await scenario.seed(c);
      seeded.push(state);
      return state;
    };
    try {
      results.push(await runScenario({ ...scenario, seed }, ctx, bare));
    } finally {
      // What a scenario set up (webhook endpoints, a receiver process) must not reach the scenarios after it.
      for (const state of seeded) await scenario.teardown?.(state, ctx);
    }
  }
  return results;
}
async function runScenario(scenario, ctx, bare) {
  process.stdout.write(`seeding: ${scenario.name} ... `);
  const seededAt = Date.now();
  const state = await scenario.seed(ctx);
  console.log(`${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  const result = await measure(scenario.name, ctx, scenario.requests(state, ctx), scenario.options);
  result.goal = scenario.goal;
  if (scenario.relativeTo) result.relative_to = scenario.relativeTo;
  if (scenario.verify) result.verified = await scenario.verify(state, ctx).catch((error) => `FAILED: ${error.message}`);
  // Numbers of the scenario's own beyond the HTTP ones (webhook delivery latency), printed in their own table.
  if (scenario.report) result.measures = { table: scenario.measuresTable ?? 'Measures', ...(await scenario.report(state, ctx)) };
  if (scenario.ceiling && bare) await measureCeiling(scenario, ctx, bare, result);
  if (STEADY && scenario.steady !== false) await measureSteady(scenario, ctx, result);
  return result;
}

async function loadScenarios() {
  const dir = join(import.meta.dirname, 'scenarios');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const scenarios = [];
  for (const file of files) scenarios.push(...(await import(pathToFileURL(join(dir, file)).href)).default);
  return scenarios;
}

// Each run starts from a settled stack (bench/lib/measure.mjs, settle.mjs).
const measure = (name, ctx, requests, options) =>
  lib.measure(name, ctx, requests, { connections: CONNECTIONS, duration: DURATION, ...options });

/**
 * The same scenario against the bare proxy and service of bench/ceiling (freshly seeded, so writes do not
 * collide with the real run's): the most this machine serves for it through a proxy hop and Postgres.
 */
async function measureCeiling(scenario, ctx, bare, result) {
  const state = await scenario.seed(ctx);
  const ceiling = await measure(
    `ceiling: ${scenario.name}`,
    { ...ctx, baseUrl: bare.url },
    scenario.requests(state, ctx),
    scenario.options,
  );
  // A ceiling that failed requests would flatter nothing but itself: say so rather than compare.
  if (ceiling.non2xx + ceiling.errors > 0)
    console.warn(`  the ceiling run answered ${ceiling.non2xx} non-2xx and had ${ceiling.errors} errors`);
  result.ceiling_rps = ceiling.rps;
  result.ceiling_cpu_ms_per_request = ceiling.cpu_ms_per_request;
  result.ceiling_pg_statements = ceiling.pg_statements;
  result.vs_ceiling = +(result.rps / ceiling.rps).toFixed(3);
}

async function bareFastifyBaseline() {
  const app = Fastify();
  app.get('/ping', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await measure('baseline: bare Fastify route', { baseUrl: `http://127.0.0.1:${app.server.address().port}`, headers: {} }, [
      { method: 'GET', path: '/ping' },
    ]);
  } finally {
    await app.close();
  }
}

/**
 * The scenario once more (freshly seeded, so writes do not collide) at a fixed rate, STEADY_SHARE of the rate it
 * reached flat out, evenly spaced (bench/lib/steady-load.mjs), once the stack has settled from the runs before: the
 * latency a client sees when the service is busy but not saturated.
 */
async function measureSteady(scenario, ctx, result) {
  const state = await scenario.seed(ctx);
  const rate = Math.max(1, Math.round(result.rps * STEADY_SHARE));
  const goal = scenario.steadyP99GoalMs ?? STEADY_P99_GOAL_MS;
  const steady = await measure(`steady ${rate}/s: ${scenario.name}`, ctx, scenario.requests(state, ctx), {
    ...scenario.options,
    overallRate: rate,
    goalMs: goal,
  });
  result.steady = {
    rate,
    rps: steady.rps,
    p50_ms: steady.p50_ms,
    p99_ms: steady.p99_ms,
    p99_9_ms: steady.p99_9_ms,
    non2xx: steady.non2xx,
    errors: steady.errors,
    p99_goal_ms: goal,
    settled_after_s: steady.settle?.waited_s,
    cpu_ms_per_request: steady.cpu_ms_per_request,
    met: steady.p99_ms <= goal && steady.non2xx + steady.errors === 0,
    over_goal: steady.over_goal,
    load: steady.load,
  };
}

/**
 * BENCH_REPEAT: per scenario, its range over the rounds (rate, ratios) and how many rounds met the steady goal, then
 * each miss with what its requests' trace says: the slow ones packed into one second (a stall) or spread over the run
 * (too little headroom), and what the machine's cores did in that second.
 */
function reportRounds(rounds) {
  const names = [...new Set(rounds.flatMap((results) => results.map((row) => row.scenario)))];
  const range = (values) => {
    const present = values.filter((value) => typeof value === 'number');
    return present.length === 0 ? '' : `${Math.min(...present)}–${Math.max(...present)}`;
  };
  const columns = ['scenario', 'rps', 'vs_ceiling', 'vs_relative', 'steady_p99_ms', 'steady_met'];
  const cells = names.map((name) => {
    const rows = rounds.map((results) => results.find((row) => row.scenario === name)).filter(Boolean);
    const steady = rows.map((row) => row.steady).filter(Boolean);
    return [
      name,
      range(rows.map((row) => row.rps)),
      range(rows.map((row) => row.vs_ceiling)),
      range(rows.map((row) => row.vs_relative)),
      steady.map((run) => run.p99_ms).join(' '),
      steady.length === 0 ? '' : `${steady.filter((run) => run.met).length} of ${steady.length}`,
    ];
  });
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((cell) => String(cell[i]).length)));
  const line = (values) => values.map((value, i) => String(value).padEnd(widths[i])).join('  ');
  console.log(`\n=== ${rounds.length} rounds on one stack ===\n`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cell of cells) console.log(line(cell));
  const misses = rounds.flatMap((results, index) =>
    results
      .filter((row) => row.steady && !row.steady.met)
      .map((row) => `  round ${index + 1}, ${row.scenario}: ${explainMiss(row.steady)}`),
  );
  console.log(
    misses.length === 0 ? '\nEvery steady run met its p99 goal.' : `\nThe steady runs that missed their goal:\n${misses.join('\n')}`,
  );
}

/**
 * One sentence on a steady run that missed: whose it was, its over-goal requests' shape in time and the cores busy
 * meanwhile. Other processes holding half a core or more make it the machine's; else packed slow requests are a stall
 * of the stack's own (a collection, a checkpoint), and spread ones too little headroom at half the flat-out rate.
 */
function explainMiss(steady) {
  const cores = (load) =>
    load
      ? `${load.machine_cores} cores busy (the stack ${load.stack_cores}, this client ${load.client_cores}, other processes ${load.other_cores}` +
        `${load.steal_cores > 0 ? `, stolen by the hypervisor ${load.steal_cores}` : ''})`
      : 'no load samples';
  const failed = steady.non2xx + steady.errors > 0 ? `${steady.non2xx} non-2xx and ${steady.errors} errors; ` : '';
  const over = steady.over_goal;
  if (!over?.densest_second) return `${failed}p99 ${steady.p99_ms} ms, no request over ${steady.p99_goal_ms} ms`;
  const second = over.densest_second;
  const stall = second.count * 2 >= over.count;
  const others = Math.max(second.load?.other_cores ?? 0, steady.load?.other_cores ?? 0);
  const whose =
    others >= MACHINE_SHARED_CORES
      ? `the machine's (other processes held up to ${others} of its ${availableParallelism()} cores)`
      : stall
        ? "the stack's own stall"
        : 'too little headroom';
  const shape = stall
    ? `${second.count} of the ${over.count} requests over ${steady.p99_goal_ms} ms were due within the second from ${second.at_s} s`
    : `${over.count} requests over ${steady.p99_goal_ms} ms from ${over.first_at_s} s to ${over.last_at_s} s, at most ${second.count} in one second`;
  return `${whose}: ${failed}p99 ${steady.p99_ms} ms, ${shape}; in that second ${cores(second.load)}, over the whole run ${cores(steady.load)}`;
}

function report(results, title) {
  const [bare, gateway] = results;
  for (const row of results) {
    row.vs_bare_fastify = bare.rps ? +(row.rps / bare.rps).toFixed(3) : null;
    row.vs_gateway_baseline = gateway?.rps ? +(row.rps / gateway.rps).toFixed(3) : null;
    // A scenario measured against another of the same run (the same search, among more data).
    const other = row.relative_to && results.find((candidate) => candidate.scenario === row.relative_to);
    if (other?.rps) row.vs_relative = +(row.rps / other.rps).toFixed(3);
  }
  const columns = [
    'scenario',
    'rps',
    'p50_ms',
    'p99_ms',
    'non2xx',
    'errors',
    'vs_bare_fastify',
    'vs_gateway_baseline',
    'ceiling_rps',
    'vs_ceiling',
    'vs_relative',
    'goal',
    'verified',
  ];
  const widths = columns.map((c) => Math.max(c.length, ...results.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join('  ');
  if (title) console.log(`\n=== ${title} ===`);
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per scenario, on ${env.BENCH_URL ?? 'a fresh local stack'}\n`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of results) console.log(line(columns.map((c) => row[c])));
  reportSteady(results);
  reportMeasures(results);
  console.log('\nCPU milliseconds per request, by process (client = autocannon, and the bare Fastify route, which runs beside it):');
  const shares = (cpu) =>
    Object.entries(cpu ?? {})
      .map(([group, ms]) => `${group} ${ms}`)
      .join(', ');
  for (const row of results) {
    for (const [label, cpu] of [
      [`  ${row.scenario}`, row.cpu_ms_per_request],
      ['    its ceiling', row.ceiling_cpu_ms_per_request],
      // At half the rate, work that batches under load (the outbox relay, the consumers, Postgres's commits) is done
      // a request at a time: a booking's CPU nearly doubles, and the "half load" is not half the machine.
      [`    at its steady ${row.steady?.rate}/s`, row.steady?.cpu_ms_per_request],
    ]) {
      if (shares(cpu)) console.log(`${label}: ${shares(cpu)}`);
    }
  }
  reportStatements(results);
}

/** The top Postgres statements of each run (pg-statements.mjs), when pg_stat_statements is loaded. */
function reportStatements(results) {
  if (!results.some((row) => row.pg_statements?.length)) return;
  console.log('\nPostgres statements per request (pg_stat_statements: calls, and execution time with lock waits, in ms):');
  for (const row of results) {
    for (const [label, statements] of [
      [`  ${row.scenario}`, row.pg_statements],
      ['    its ceiling', row.ceiling_pg_statements],
    ]) {
      if (!statements?.length) continue;
      console.log(`${label}:`);
      for (const s of statements) console.log(`      ${s.calls_per_request} × ${s.ms_per_call} = ${s.ms_per_request}  ${s.statement}`);
    }
  }
}

/** Latency at STEADY_SHARE of each scenario's maximum, against its p99 goal. */
function reportSteady(results) {
  const rows = results.filter((row) => row.steady);
  if (rows.length === 0) return;
  const columns = ['scenario', 'rate', 'rps', 'p50_ms', 'p99_ms', 'p99_9_ms', 'non2xx', 'errors', 'p99_goal_ms', 'met'];
  const cells = rows.map((row) => [row.scenario, ...columns.slice(1).map((column) => row.steady[column])]);
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((cell) => String(cell[i] ?? '').length)));
  const line = (values) => values.map((value, i) => String(value ?? '').padEnd(widths[i])).join('  ');
  console.log(`
At a steady ${STEADY_SHARE * 100} % of each scenario's maximum rate (evenly spaced requests, bench/lib/steady-load.mjs):
`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cell of cells) console.log(line(cell));
}

/** What scenarios reported beyond the HTTP numbers (`report`), one table per `measuresTable`. */
function reportMeasures(results) {
  const tables = Map.groupBy(
    results.filter((row) => row.measures),
    (row) => row.measures.table,
  );
  for (const [table, rows] of tables) {
    const columns = ['scenario', ...new Set(rows.flatMap((row) => Object.keys(row.measures).filter((key) => key !== 'table')))];
    const cells = rows.map((row) => [row.scenario, ...columns.slice(1).map((column) => row.measures[column])]);
    const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((cell) => String(cell[i] ?? '').length)));
    const line = (values) => values.map((value, i) => String(value ?? '').padEnd(widths[i])).join('  ');
    console.log(`\n${table}:\n`);
    console.log(line(columns));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const cell of cells) console.log(line(cell));
  }
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
