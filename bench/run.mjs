// `npm run bench`: starts the stack on its own database (or targets BENCH_URL), seeds data, runs every
// scenario of bench/scenarios/*.mjs plus baselines measured in the same run (a bare Fastify route, the
// gateway's trivial route, the bare proxy of bench/ceiling), and — for scenarios marked `ceiling` — the same
// requests against bench/ceiling's bare proxy and service (BENCH_CEILING=0 skips them); a scenario with `relativeTo` is
// also compared with the named scenario of the same run (`vs_relative`); every scenario (unless `steady: false`) runs
// again at a steady half of its maximum rate, against a p99 goal (`steadyP99GoalMs`, 25 ms by default). A scenario's
// `report(state, ctx)` adds numbers of its own (a table per `measuresTable`), and `teardown(state, ctx)` undoes what its
// seeding set up. Prints the tables and writes bench/results/latest.json. Numbers, never pass/fail: a benchmark does not
// fail on timing.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { existsSync, mkdirSync, readdirSync, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { pathToFileURL } = await import('node:url');
const { default: autocannon } = await import('autocannon');
const { default: Fastify } = await import('fastify');
const { default: pg } = await import('pg');
const { startStack, checkInfrastructure, deleteStreams, recreateDatabase } = await import('../scripts/stack.mjs');
const { cpuMeter } = await import('./process-cpu.mjs');
const { startBareStack } = await import('./ceiling/bare-stack.mjs');

const ROOT = join(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? 'bench-admin-token-0123456789';
const CEILING = process.env.BENCH_CEILING !== '0';
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
// Latency under a steady load: each scenario again at this share of the rate it just reached (BENCH_STEADY=0 skips).
const STEADY_SHARE = 0.5;
const STEADY = process.env.BENCH_STEADY !== '0';
/** The p99 a scenario must keep at the steady rate, unless it names its own (booking creation: 50 ms). */
const STEADY_P99_GOAL_MS = 25;

async function main() {
  const target = process.env.BENCH_URL ? await existingTarget() : await ownStack();
  const ctx = await context(target);
  const results = [];
  let bare = null;
  try {
    if (CEILING)
      bare = await startBareStack({ databaseUrl: target.databaseUrl, organizationId: ctx.organizationId, port: target.port + 90 });
    results.push(await bareFastifyBaseline());
    results.push(await measure('baseline: gateway → authenticated trivial route', ctx, [{ method: 'GET', path: '/api/v1/ping/events' }]));
    if (bare)
      results.push(
        await measure('ceiling: bare proxy → bare service, trivial route', { ...ctx, baseUrl: bare.url }, [
          { method: 'GET', path: '/ping' },
        ]),
      );
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
  } finally {
    await bare?.stop();
    await ctx.close();
    await target.stop();
  }
  report(results);
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

/** A stack of our own, on a fresh database and NATS prefix, quiet logs, no effective rate limit. */
async function ownStack() {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_bench';
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const natsPrefix = `bench_${Date.now().toString(36)}`;
  const problem = await checkInfrastructure(databaseUrl, natsUrl);
  if (problem) throw new Error(problem);
  await recreateDatabase(databaseUrl);
  execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_PREFIX: natsPrefix,
    ADMIN_TOKEN,
    RATE_LIMIT_MAX: '100000000',
    CALENDAR_ENCRYPTION_KEYS: process.env.CALENDAR_ENCRYPTION_KEYS ?? `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    OAUTH_STATE_SECRET: process.env.OAUTH_STATE_SECRET ?? 'bench-oauth-state-secret-0123456789',
    // The webhook scenarios' receiver listens on http://127.0.0.1, which production refuses (https and public
    // addresses only); the address is still checked at every connect, under this looser policy.
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const port = Number(process.env.BENCH_PORT ?? 3200);
  const stack = await startStack({ port, env, output: 'errors' });
  const stop = async () => {
    await stack.stop();
    await deleteStreams(natsUrl, natsPrefix);
  };
  return { url: stack.gatewayUrl, port, databaseUrl, stop };
}

async function existingTarget() {
  if (!process.env.DATABASE_URL) throw new Error('With BENCH_URL, also set DATABASE_URL (seeding writes bulk rows) and ADMIN_TOKEN.');
  const url = process.env.BENCH_URL.replace(/\/$/, '');
  return { url, port: Number(new URL(url).port || 80), databaseUrl: process.env.DATABASE_URL, stop: async () => undefined };
}

/** What a scenario's seed and requests get: the gateway, an organization and its key, HTTP and SQL helpers. */
async function context(target) {
  const created = await fetch(`${target.url}/admin/v1/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench ${new Date().toISOString()}`, timezone: 'UTC' }),
  });
  if (created.status !== 201) throw new Error(`cannot create the bench organization: ${created.status} ${await created.text()}`);
  const { data } = await created.json();
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 4 });
  const auth = { authorization: `Bearer ${data.api_key}` };
  return {
    baseUrl: target.url,
    apiKey: data.api_key,
    organizationId: data.id,
    /** The stack's database: its Postgres backends are the ones whose CPU counts (bench/process-cpu.mjs). */
    database: new URL(target.databaseUrl).pathname.slice(1),
    headers: auth,
    async api(method, path, body) {
      const response = await fetch(`${target.url}${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async sql(text, params = []) {
      return (await pool.query(text, params)).rows;
    },
    close: () => pool.end(),
  };
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

function toAutocannonRequests(requests, ctx) {
  return requests.map(({ path, body, headers, ...rest }) => ({
    ...rest,
    path,
    headers: { ...ctx.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  }));
}

async function measure(name, ctx, requests, options = {}) {
  process.stdout.write(`running: ${name} ... `);
  const meter = cpuMeter({ database: ctx.database });
  const result = await autocannon({
    url: ctx.baseUrl,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: toAutocannonRequests(requests, ctx),
    ...options,
  });
  const summary = summarize(name, result);
  summary.cpu_ms_per_request = meter.perRequest(result.requests.total);
  console.log(`${summary.rps} req/s`);
  return summary;
}

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
 * reached flat out (autocannon's overallRate): the latency a client sees when the service is busy but not saturated.
 */
async function measureSteady(scenario, ctx, result) {
  const state = await scenario.seed(ctx);
  const rate = Math.max(1, Math.round(result.rps * STEADY_SHARE));
  const steady = await measure(`steady ${rate}/s: ${scenario.name}`, ctx, scenario.requests(state, ctx), {
    ...scenario.options,
    overallRate: rate,
  });
  const goal = scenario.steadyP99GoalMs ?? STEADY_P99_GOAL_MS;
  result.steady = {
    rate,
    rps: steady.rps,
    p50_ms: steady.p50_ms,
    p99_ms: steady.p99_ms,
    p99_9_ms: steady.p99_9_ms,
    non2xx: steady.non2xx,
    errors: steady.errors,
    p99_goal_ms: goal,
    met: steady.p99_ms <= goal && steady.non2xx + steady.errors === 0,
  };
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

function report(results) {
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
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per scenario, on ${process.env.BENCH_URL ?? 'a fresh local stack'}\n`);
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
    ]) {
      if (shares(cpu)) console.log(`${label}: ${shares(cpu)}`);
    }
  }
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  const file = join(import.meta.dirname, 'results', 'latest.json');
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, duration_s: DURATION, results }, null, 2)}\n`,
  );
  console.log(`\nWritten to ${file}`);
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
At a steady ${STEADY_SHARE * 100} % of each scenario's maximum rate (autocannon overallRate):
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
