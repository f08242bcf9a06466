// `npm run soak`: 60 s of mixed traffic (slot reads, event lists, bookings, registrations) at 50 connections
// through the gateway, then checks what must hold whatever the load: no 5xx, no double booking, no
// over-registration, every booking event applied once by the scheduling projection, the outbox published
// once per row, and the memory of every process (RSS at start and end). `SOAK_REPLICAS=2` runs two replicas
// of bookings, scheduling and events behind the gateway (scale-out proof). Exits 1 when an invariant fails.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { readFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { default: autocannon } = await import('autocannon');
const { default: pg } = await import('pg');
const { startStack, checkInfrastructure, deleteStreams, recreateDatabase } = await import('../scripts/stack.mjs');

const ROOT = join(import.meta.dirname, '..');
const DURATION = Number(process.env.SOAK_DURATION ?? 60);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 10);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 50);
const REPLICAS = Number(process.env.SOAK_REPLICAS ?? 1);
const ADMIN_TOKEN = 'soak-admin-token-0123456789';
const DATABASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_soak';
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
  const replicas = REPLICAS > 1 ? { bookings: REPLICAS, scheduling: REPLICAS, events: REPLICAS } : {};
  const stack = await startStack({
    port: Number(process.env.SOAK_PORT ?? 3300),
    replicas,
    output: 'errors',
    env: {
      ...process.env,
      NODE_ENV: 'production',
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
    console.log(`warm-up ${WARMUP} s (${REPLICAS} replica(s) of bookings, scheduling, events) ...`);
    await traffic(stack.gatewayUrl, world, WARMUP);
    const rssStart = Object.fromEntries(stack.children.map(({ name, port, child }) => [`${name}:${port}`, rssMb(child.pid)]));
    console.log(`load: ${DURATION} s at ${CONNECTIONS} connections ...`);
    const heap = sampleHeaps(stack.children);
    const result = await traffic(stack.gatewayUrl, world, DURATION);
    const heaps = heap.stop();
    const rssEnd = Object.fromEntries(stack.children.map(({ name, port, child }) => [`${name}:${port}`, rssMb(child.pid)]));
    // The projections trail the load by however long the consumers need: give them up to a minute.
    let checks = await invariants(pool, world);
    for (let waited = 0; !checks.every((check) => check.ok) && waited < 60; waited += 2) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      checks = await invariants(pool, world);
    }
    report(result, rssStart, rssEnd, heaps, checks);
    if (!checks.every((check) => check.ok)) process.exitCode = 1;
  } finally {
    await pool.end();
    await stack.stop();
    await deleteStreams(NATS_URL, natsPrefix);
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

/** Mixed traffic: per connection a slots read, an events list, a booking on a random quarter hour (next 365 days, so writes keep succeeding through a long run), a registration. */
function traffic(baseUrl, world, seconds) {
  const day0 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
  const today = new Date().toISOString().slice(0, 10);
  return autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${world.key}` },
    requests: [
      { method: 'GET', path: `/api/bookings/slots?scheduleId=${world.scheduleId}&startDate=${today}` },
      { method: 'GET', path: '/api/v1/events?include_counts=true&limit=20' },
      {
        method: 'POST',
        path: '/api/v1/bookings',
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
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Load', email: 'load@example.com' }),
      },
    ],
  });
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
    `SELECT coalesce(sum(quantity), 0)::int AS taken FROM events.registrations WHERE event_id = $1 AND status = 'active'`,
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
 * The live JS heap of every process (prom-client's nodejs_heap_size_used_bytes) every 2 s. RSS alone cannot
 * tell a leak from V8 keeping freed pages; the heap's range early and late in the run can.
 */
function sampleHeaps(children) {
  const samples = new Map(children.map(({ name, port }) => [`${name}:${port}`, []]));
  const timer = setInterval(async () => {
    for (const { name, port } of children) {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
      const used = /^nodejs_heap_size_used_bytes\S* (\d+(\.\d+)?)/m.exec(text)?.[1];
      if (used) samples.get(`${name}:${port}`).push(Math.round(Number(used) / 1048576));
    }
  }, 2000);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

function range(values) {
  return values.length ? `${Math.min(...values)}–${Math.max(...values)}` : '?';
}

function report(result, rssStart, rssEnd, heaps, checks) {
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
  console.log('\nMemory (MB): RSS after warm-up → at the end; live heap range in the first third → last third of the load:');
  for (const name of Object.keys(rssStart)) {
    const series = heaps.get(name) ?? [];
    const third = Math.max(1, Math.floor(series.length / 3));
    const rss = `RSS ${String(rssStart[name]).padStart(4)} → ${String(rssEnd[name]).padStart(4)}`;
    console.log(
      `  ${name.padEnd(20)} ${rss}   heap ${range(series.slice(0, third)).padStart(8)} → ${range(series.slice(-third)).padStart(8)}`,
    );
  }
  console.log('\nInvariants:');
  for (const { name, ok, detail } of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
