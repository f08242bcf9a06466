// `npm run soak`: a warm-up flat out, then SOAK_DURATION s (60; `SOAK_DURATION=600` for the 10-minute soak) of mixed
// traffic (slot reads, event lists, bookings, registrations) at half the warm-up's rate through the gateway, then
// checks what must hold whatever the load: no 5xx, no double booking, no over-registration, every booking event
// applied once by the scheduling projection, the outbox published once per row, and flat memory in every process
// (live heap after a full GC, before and after the load). Every 10 s of the load it samples each process's RSS and
// heap in use into bench/results/soak.json, says where RSS levelled off, and draws docs/soak-rss.svg: the memory
// limits of compose and Kubernetes come from those plateaus. `SOAK_REPLICAS=2` runs two replicas of bookings,
// scheduling and events behind the gateway (scale-out proof). Exits 1 when an invariant fails.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { heapSnapshotOptions, liveHeaps } = await import('./live-heap.mjs');
const { liveHeapTrends, rssChart, rssPlateaus, sampleMemory } = await import('./lib/memory-sampler.mjs');
const { default: autocannon } = await import('autocannon');
const { default: pg } = await import('pg');
const { startStack, checkInfrastructure, deleteStreams, recreateDatabase } = await import('@app/dev-stack');
const { readSoakEnv } = await import('../scripts/script-env.mjs');

const ROOT = join(import.meta.dirname, '..');
const {
  SOAK_DURATION: DURATION,
  SOAK_WARMUP: WARMUP,
  SOAK_CONNECTIONS: CONNECTIONS,
  SOAK_REPLICAS: REPLICAS,
  SOAK_PORT,
  SOAK_DATABASE_URL: DATABASE_URL,
} = readSoakEnv();
const ADMIN_TOKEN = 'soak-admin-token-0123456789';
const METRICS_TOKEN = process.env.METRICS_TOKEN ?? 'bench-metrics-token-0123456789';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SEATS = 200;

const rssMb = (pid) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function main() {
  const problem = await checkInfrastructure(DATABASE_URL, NATS_URL);
  if (problem) throw new Error(problem);
  await recreateDatabase(DATABASE_URL);
  execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  const natsPrefix = `soak_${Date.now().toString(36)}`;
  const snapshots = mkdtempSync(join(tmpdir(), 'soak-heap-'));
  const replicas = REPLICAS > 1 ? { bookings: REPLICAS, scheduling: REPLICAS, events: REPLICAS } : {};
  const stack = await startStack({
    port: SOAK_PORT,
    portVariable: 'SOAK_PORT',
    replicas,
    output: 'errors',
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${heapSnapshotOptions(snapshots)}`.trim(),
      NODE_ENV: 'production',
      // Production refuses to start with /metrics open beside the API: a token (the bench scrapes none).
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      DATABASE_URL,
      NATS_URL,
      NATS_PREFIX: natsPrefix,
      ADMIN_TOKEN,
      RATE_LIMIT_MAX: '100000000',
      CALENDAR_ENCRYPTION_KEYS: `soak:${Buffer.alloc(32, 9).toString('base64')}`,
      OAUTH_STATE_SECRET: 'soak-oauth-state-secret-0123456789',
    },
  });
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  try {
    const world = await seed(stack.gatewayUrl);
    console.log(`warm-up ${WARMUP} s at full load (${REPLICAS} replica(s) of bookings, scheduling, events) ...`);
    const warmup = await traffic(stack.gatewayUrl, world, WARMUP);
    // Half the rate the machine served flat out: the soak is a long steady day, not an overload.
    const rate = Math.max(10, Math.round(warmup.requests.average / 2));
    const rssStart = Object.fromEntries(stack.children.map(({ name, port, child }) => [`${name}:${port}`, rssMb(child.pid)]));
    const heapStart = await liveHeaps(stack.children, snapshots);
    console.log(
      `load: ${DURATION} s at ${rate} req/s (half of the warm-up's ${Math.round(warmup.requests.average)}), ${CONNECTIONS} connections ...`,
    );
    const sampler = sampleMemory(stack.children, { intervalMs: 10_000, token: METRICS_TOKEN });
    const failures = new ServerErrors();
    const result = await traffic(stack.gatewayUrl, world, DURATION, rate, failures);
    const samples = await sampler.stop();
    writeSamples(samples, rate, result);
    const rssEnd = Object.fromEntries(stack.children.map(({ name, port, child }) => [`${name}:${port}`, rssMb(child.pid)]));
    const heapEnd = await liveHeaps(stack.children, snapshots);
    // The projections trail the load by however long the consumers need: give them up to a minute.
    let checks = await invariants(pool, world);
    for (let waited = 0; !checks.every((check) => check.ok) && waited < 60; waited += 2) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      checks = await invariants(pool, world);
    }
    checks.push(memoryFlat(heapStart, heapEnd));
    report(result, rssStart, rssEnd, heapStart, heapEnd, checks, failures, shedOver(samples));
    if (!checks.every((check) => check.ok)) process.exitCode = 1;
  } finally {
    await pool.end();
    await stack.stop();
    await deleteStreams(NATS_URL, natsPrefix);
    rmSync(snapshots, { recursive: true, force: true });
  }
}

async function seed(baseUrl) {
  const call = async (method, path, key, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const org = await call('POST', '/admin/v1/organizations', ADMIN_TOKEN, { name: 'Soak', timezone: 'UTC' });
  const key = org.api_key;
  const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const schedule = await call('POST', '/api/v1/schedules', key, {
    name: 'Open',
    timezone: 'UTC',
    slot_duration: 15,
    availability: week.map((day) => ({ day, start: '00:00', end: '24:00' })),
  });
  const start = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  const event = await call('POST', '/api/v1/events', key, {
    title: 'Soak night',
    start_date: start,
    start_time: '19:00',
    slots: SEATS,
    status: 'published',
  });
  return { key, scheduleId: schedule.id, eventId: event.id, organizationId: org.id };
}

/** Memory over the run: bench/results/soak.json (every sample and where RSS levelled off) and docs/soak-rss.svg. */
function writeSamples(samples, rate, result) {
  const plateaus = rssPlateaus(samples);
  const liveHeaps = liveHeapTrends(samples);
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const run = { date: new Date().toISOString(), duration_s: DURATION, rate, rps: Math.round(result.requests.average), replicas: REPLICAS };
  writeFileSync(join(results, 'soak.json'), `${JSON.stringify({ ...run, plateaus, live_heaps: liveHeaps, samples }, null, 2)}\n`);
  const title = `RSS per process: ${Math.round(DURATION / 60)} min soak at ${rate} req/s (${run.date.slice(0, 10)})`;
  writeFileSync(join(ROOT, 'docs', 'soak-rss.svg'), rssChart(samples, title));
  console.log(
    "\nRSS over the load (MB): where it levelled off (mean of the last fifth), its peak, the last fifth's peak over the earlier one:",
  );
  for (const [name, plateau] of Object.entries(plateaus)) {
    const verdict = plateau.levelled_off ? 'levelled off' : 'STILL GROWING';
    console.log(
      `  ${name.padEnd(20)} ${String(plateau.plateau_mb).padStart(4)} (peak ${plateau.peak_mb}, ${(plateau.last_fifth_peak_growth * 100).toFixed(1)} %) ${verdict}`,
    );
  }
  console.log('\nLive heap over the load (MB, right after each major collection, every 10 s): first fifth → last fifth:');
  for (const [name, trend] of Object.entries(liveHeaps)) {
    const growth = trend.growth === null ? '' : ` (${(trend.growth * 100).toFixed(1)} %)`;
    console.log(`  ${name.padEnd(20)} ${trend.first_fifth_mb ?? '–'} → ${trend.last_fifth_mb ?? '–'}${growth}`);
  }
}

/**
 * Mixed traffic: per connection a slots read, an events list, a booking on a random quarter hour (next 365 days, so
 * writes keep succeeding through a long run), a registration. With `rate`, at most that many requests a second.
 * With `failures` (ServerErrors), every 5xx is recorded with its route, code, message and second.
 */
function traffic(baseUrl, world, seconds, rate, failures) {
  const day0 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
  const today = new Date().toISOString().slice(0, 10);
  return autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: { authorization: `Bearer ${world.key}` },
    requests: [
      {
        method: 'GET',
        path: `/api/bookings/slots?scheduleId=${world.scheduleId}&startDate=${today}`,
        onResponse: failures?.recorder('slots'),
      },
      { method: 'GET', path: '/api/v1/events?include_counts=true&limit=20', onResponse: failures?.recorder('events list') },
      {
        method: 'POST',
        path: '/api/v1/bookings',
        onResponse: failures?.recorder('booking'),
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const start = day0 + Math.floor(Math.random() * 365 * 96) * 900_000;
          const body = {
            schedule_id: world.scheduleId,
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + 900_000).toISOString(),
            attendee: { name: 'Load', email: 'load@example.com' },
          };
          return { ...request, body: JSON.stringify(body) };
        },
      },
      {
        method: 'POST',
        path: `/api/v1/events/${world.eventId}/registrations`,
        onResponse: failures?.recorder('registration'),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Load', email: 'load@example.com' }),
      },
    ],
  });
}

/** The code and message of an error answer (API.md: `{ error, code }`), or its first characters when it is not JSON. */
function errorOf(body) {
  try {
    const { error, code } = JSON.parse(body);
    return { code, message: error };
  } catch {
    return { message: String(body).slice(0, 80) };
  }
}

/** Requests each process shed as overloaded between the first and the last memory sample. */
function shedOver(samples) {
  const [first, last] = [samples[0], samples.at(-1)];
  return Object.fromEntries(
    Object.keys(last?.processes ?? {}).map((name) => [name, (last.processes[name].shed ?? 0) - (first.processes[name].shed ?? 0)]),
  );
}

/**
 * Every 5xx of a run by route, error code and message, and the seconds of the run they came in: which layer refused
 * (a shed process, a busy pool, a slow upstream) and whether they came together, so a failed "no 5xx" is explained.
 */
class ServerErrors {
  #started = Date.now();
  #byCause = new Map();

  recorder(route) {
    return (status, body) => {
      if (status < 500) return;
      const error = errorOf(body);
      const cause = `${status} ${route}: ${error.code ?? '?'} "${error.message ?? ''}"`;
      const entry = this.#byCause.get(cause) ?? { count: 0, seconds: new Set() };
      entry.count += 1;
      entry.seconds.add(Math.floor((Date.now() - this.#started) / 1000));
      this.#byCause.set(cause, entry);
    };
  }

  lines() {
    return [...this.#byCause].map(([cause, { count, seconds }]) => `${count} × ${cause} at s ${[...seconds].join(', ')}`);
  }
}

async function invariants(pool, world) {
  const one = async (sql, params = []) => (await pool.query(sql, params)).rows[0];
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok, detail });

  const overlaps = await one(
    `SELECT count(*)::int AS n FROM bookings.bookings a JOIN bookings.bookings b
       ON a.schedule_id = b.schedule_id AND a.id < b.id
      AND tstzrange(a.start_time, a.end_time) && tstzrange(b.start_time, b.end_time)
    WHERE a.status IN ('PENDING','CONFIRMED') AND b.status IN ('PENDING','CONFIRMED')`,
  );
  const bookings = await one(`SELECT count(*)::int AS n FROM bookings.bookings WHERE organization_id = $1`, [world.organizationId]);
  check('no double bookings', overlaps.n === 0, `${bookings.n} bookings, ${overlaps.n} overlapping pairs`);

  const seats = await one(
    `SELECT coalesce(sum(quantity), 0)::int AS taken FROM events.registrations WHERE event_id = $1 AND status = 'confirmed'`,
    [world.eventId],
  );
  check('no over-registration', seats.taken <= SEATS, `${seats.taken} of ${SEATS} places taken`);

  const projection = await one(
    `SELECT count(*)::int AS missing FROM bookings.bookings b
       LEFT JOIN scheduling.booking_intervals p ON p.booking_id = b.id AND p.version = b.version AND p.status = b.status
      WHERE b.organization_id = $1 AND p.booking_id IS NULL`,
    [world.organizationId],
  );
  check(
    'every booking event applied once by the projection',
    projection.missing === 0,
    `${projection.missing} bookings not (or not at their version) in the projection`,
  );

  for (const schema of ['bookings', 'events']) {
    const outbox = await one(
      `SELECT count(*)::int AS pending, max(attempts)::int AS attempts FROM ${schema}.outbox WHERE published_at IS NULL`,
    );
    check(`${schema} outbox fully published`, outbox.pending === 0, `${outbox.pending} rows pending`);
  }
  const duplicates = await one(
    `SELECT count(*)::int AS n FROM (SELECT event_id FROM scheduling.inbox GROUP BY consumer, event_id HAVING count(*) > 1) d`,
  );
  check('inbox holds each event once', duplicates.n === 0, `${duplicates.n} duplicated event ids`);
  return checks;
}

/**
 * Flat memory: no process holds much more live heap after the load than before it. Live heap is measured
 * after a full GC (live-heap.mjs), so a leak shows and V8's lazy collection does not; the allowance covers
 * caches that fill once (compiled code, prepared plans, connection buffers).
 */
function memoryFlat(start, end) {
  const grown = Object.keys(start).filter((name) => end[name] - start[name] > Math.max(10, start[name] * 0.2));
  return {
    name: 'memory flat after warm-up',
    ok: grown.length === 0,
    detail: grown.length
      ? `live heap grew in ${grown.join(', ')}`
      : 'live heap after a full GC grew by at most max(10 MB, 20 %) in every process',
  };
}

function report(result, rssStart, rssEnd, heapStart, heapEnd, checks, failures, shedDuringLoad) {
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]));
  const fiveHundreds = Object.entries(codes)
    .filter(([code]) => code.startsWith('5'))
    .reduce((sum, [, n]) => sum + n, 0);
  checks.unshift({
    name: 'no 5xx',
    ok: fiveHundreds === 0 && result.errors === 0,
    detail: `status codes ${JSON.stringify(codes)}, ${result.errors} errors`,
  });
  console.log(
    `\n${Math.round(result.requests.average)} req/s mixed, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.total} requests`,
  );
  console.log('\nMemory (MB) after warm-up → after the load: RSS, and live JS heap after a full GC (heap snapshot):');
  for (const name of Object.keys(rssStart)) {
    const rss = `RSS ${String(rssStart[name]).padStart(4)} → ${String(rssEnd[name]).padStart(4)}`;
    console.log(`  ${name.padEnd(20)} ${rss}   live heap ${String(heapStart[name]).padStart(5)} → ${String(heapEnd[name]).padStart(5)}`);
  }
  const causes = failures.lines();
  for (const [name, shed] of Object.entries(shedDuringLoad)) if (shed > 0) causes.push(`${name} shed ${shed} request(s) as overloaded`);
  if (causes.length > 0) console.log(`\n5xx by route and cause:\n${causes.map((line) => `  ${line}`).join('\n')}`);
  console.log('\nInvariants:');
  for (const { name, ok, detail } of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
