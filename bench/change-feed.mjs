// `npm run bench:feed`: the change feed (GET /api/v1/changes) on the real stack. Seeds FEED_BENCH_CHANGES changes
// (default 100,000) through the real path: product.created outbox rows written into the catalog's schema in
// transactions of 100 (the payload of a real product's event, cloned with new ids), which the catalog's relay
// publishes and the webhooks service's ingester stores; prints how long that took. Then walks the whole feed through
// the gateway, 200 items a request, following next_cursor, three times (items/s), and measures the long poll's
// wake-up: FEED_BENCH_WAKEUPS times, a request waiting with wait=30 at the head of the feed while a product or a
// booking is created; from the create's 201 to the waiting request's answer (p50, p95, max). Numbers only: it
// never fails on timing. Writes bench/results/change-feed.json.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { mkdirSync, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { performance } = await import('node:perf_hooks');
const { default: pg } = await import('pg');
const { ADMIN_TOKEN, ownStack } = await import('./lib/target.mjs');

const DATABASE_URL = process.env.FEED_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_bench_feed';
const PORT = Number(process.env.FEED_BENCH_PORT ?? 3500);
const CHANGES = Number(process.env.FEED_BENCH_CHANGES ?? 100_000);
const WAKEUPS = Number(process.env.FEED_BENCH_WAKEUPS ?? 40);
const PER_TRANSACTION = 100;
const PAGE = 200;

async function main() {
  const target = await ownStack({ databaseUrl: DATABASE_URL, port: PORT, portVariable: 'FEED_BENCH_PORT' });
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  try {
    const api = client(target.url);
    const organization = await api('POST', '/admin/v1/organizations', ADMIN_TOKEN, { name: 'Feed bench', timezone: 'UTC' });
    const key = organization.data.api_key;
    const organizationId = organization.data.id;

    const template = await productEventTemplate(api, key, pool);
    const seeded = await seed(pool, organizationId, template);
    const head = await waitForFeed(api, key, CHANGES + 1);
    const walks = [];
    for (let run = 0; run < 3; run += 1) walks.push(await walk(api, key));
    const wakeups = await wakeUps(api, key, head.cursor);

    const result = {
      machine: {
        cpus: (await import('node:os')).cpus().length,
        postgres: (await pool.query('SHOW server_version')).rows[0].server_version,
      },
      changes: CHANGES,
      seed_s: round(seeded.seconds),
      stored_after_seed_s: round(head.seconds),
      ingest_per_s: Math.round(CHANGES / (seeded.seconds + head.seconds)),
      walks: walks.map((w) => ({
        items: w.items,
        seconds: round(w.seconds),
        items_per_s: Math.round(w.items / w.seconds),
        requests: w.requests,
      })),
      wakeup_ms: summary(wakeups.map((w) => w.ms)),
      wakeup_by_service: Object.fromEntries(
        ['catalog', 'bookings'].map((service) => [service, summary(wakeups.filter((w) => w.service === service).map((w) => w.ms))]),
      ),
    };
    console.table(result.walks);
    console.log(
      `seeded ${CHANGES} changes in ${result.seed_s} s, all in the feed ${result.stored_after_seed_s} s later (${result.ingest_per_s}/s end to end)`,
    );
    console.log('long-poll wake-up, 201 → answer (ms):', result.wakeup_ms, result.wakeup_by_service);
    mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
    writeFileSync(join(import.meta.dirname, 'results', 'change-feed.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await pool.end();
    await target.stop();
  }
}

/** fetch against the gateway, JSON in and out; throws on a non-2xx. */
function client(baseUrl) {
  return async (method, path, key, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** A real product.created envelope (the catalog's outbox row of a product made through the API), to clone. */
async function productEventTemplate(api, key, pool) {
  const product = await api('POST', '/api/v1/products', key, { name: 'Template mug', price: 12.5, description: 'x'.repeat(200) });
  for (let tries = 0; tries < 100; tries += 1) {
    const { rows } = await pool.query(`SELECT payload FROM catalog.outbox WHERE payload -> 'data' ->> 'id' = $1`, [product.data.id]);
    if (rows[0]) return rows[0].payload;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the template product has no outbox row');
}

/** CHANGES outbox rows in the catalog's schema, PER_TRANSACTION a transaction, as the catalog writes them. */
async function seed(pool, organizationId, template) {
  const started = performance.now();
  for (let written = 0; written < CHANGES; written += PER_TRANSACTION) {
    await pool.query(
      `INSERT INTO catalog.outbox (id, subject, organization_id, payload)
       SELECT e.id, 'catalog.product.created', $1::uuid,
              jsonb_set(jsonb_set(jsonb_set($2::jsonb, '{id}', to_jsonb(e.id::text)), '{data,id}', to_jsonb(e.id::text)),
                        '{data,record,id}', to_jsonb(e.id::text))
         FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, $3::int)) e`,
      [organizationId, JSON.stringify(template), Math.min(PER_TRANSACTION, CHANGES - written)],
    );
  }
  return { seconds: (performance.now() - started) / 1000 };
}

/** Waits until the feed shows `count` items (the template's too), following it from its start; returns its last cursor. */
async function waitForFeed(api, key, count) {
  const started = performance.now();
  let cursor = null;
  let shown = 0;
  while (shown < count) {
    const page = await api('GET', `/api/v1/changes?limit=${PAGE}${cursor ? `&after=${cursor}` : ''}`, key);
    shown += page.data.length;
    cursor = page.meta.next_cursor;
    if (!page.meta.hasMore) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { cursor, seconds: (performance.now() - started) / 1000 };
}

/** The whole feed from its start, PAGE items a request. */
async function walk(api, key) {
  const started = performance.now();
  let items = 0;
  let requests = 0;
  let cursor = null;
  for (;;) {
    const page = await api('GET', `/api/v1/changes?limit=${PAGE}${cursor ? `&after=${cursor}` : ''}`, key);
    requests += 1;
    items += page.data.length;
    cursor = page.meta.next_cursor;
    if (!page.meta.hasMore) break;
  }
  return { items, requests, seconds: (performance.now() - started) / 1000 };
}

/** WAKEUPS times: a request waits at the head; a product (even runs) or a booking (odd) is created; 201 → answer. */
async function wakeUps(api, key, cursor) {
  const schedule = await api('POST', '/api/v1/schedules', key, {
    name: 'Always open',
    timezone: 'UTC',
    slot_duration: 15,
    availability: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
      day,
      start: '00:00',
      end: '24:00',
    })),
  });
  let after = await drain(api, key, cursor);
  const samples = [];
  const tomorrow = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
  for (let n = 0; n < WAKEUPS; n += 1) {
    const waiting = api('GET', `/api/v1/changes?after=${after}&wait=30`, key).then((page) => ({ page, at: performance.now() }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const service = n % 2 === 0 ? 'catalog' : 'bookings';
    if (service === 'catalog') await api('POST', '/api/v1/products', key, { name: `Woken ${n}`, price: 3 });
    else {
      const start = new Date(tomorrow + n * 900_000);
      await api('POST', '/api/v1/bookings', key, {
        schedule_id: schedule.data.id,
        start_time: start.toISOString(),
        end_time: new Date(start.getTime() + 900_000).toISOString(),
        attendee: { name: 'Ada', email: 'ada@example.com' },
      });
    }
    const created = performance.now();
    const { page, at } = await waiting;
    if (page.data.length === 0) throw new Error('the waiting request answered without the change');
    samples.push({ service, ms: Math.max(0, at - created) });
    after = await drain(api, key, page.meta.next_cursor);
  }
  return samples;
}

/** Reads past whatever is there (a create's own follow-ups), so the next wait starts at the head. */
async function drain(api, key, cursor) {
  let after = cursor;
  for (;;) {
    const page = await api('GET', `/api/v1/changes?after=${after}&limit=${PAGE}`, key);
    after = page.meta.next_cursor;
    if (!page.meta.hasMore) return after;
  }
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share) => round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: round(sorted.at(-1) ?? 0) };
}

const round = (value) => Math.round(value * 10) / 10;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
