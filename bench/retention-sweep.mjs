// `npm run bench:retention`: the cost of the retention sweep (packages/service-kit/src/outbox/retention-sweeper.ts)
// on big tables. Fills a kit outbox with RETENTION_BENCH_ROWS rows (default 1M: half published two days ago, the
// rest published within the hour or not yet), sweeps it as a service would (batches of the kit's
// KIT_TUNING.retentionSweep.batchSize, or RETENTION_BENCH_BATCH rows to try another size; statement_timeout 5 s as
// the service roles have), then does the same for an inbox of as many rows (half past the retention). Prints rows/s,
// batches, total time and the slowest batch; also what migration 0004's CREATE INDEX costs on a table that big, and a
// sweep that finds nothing. Numbers only: it never fails on timing.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { mkdtempSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { performance } = await import('node:perf_hooks');
const { default: pg } = await import('pg');
const { recreateDatabase } = await import('@app/dev-stack');

const ROOT = join(import.meta.dirname, '..');
const DATABASE_URL = process.env.RETENTION_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_bench_retention';
const ROWS = Number(process.env.RETENTION_BENCH_ROWS ?? 1_000_000);
const SCHEMA = 'bench';

async function main() {
  execFileSync('npx', ['turbo', 'run', 'build', '--filter=@app/service-kit', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  const { createLogger, KIT_TUNING, migrate, RetentionSweeper } = await import('@app/service-kit');
  const BATCH = Number(process.env.RETENTION_BENCH_BATCH ?? KIT_TUNING.retentionSweep.batchSize);
  await recreateDatabase(DATABASE_URL);
  await migrate({ databaseUrl: DATABASE_URL, schema: SCHEMA, dir: mkdtempSync(join(tmpdir(), 'no-migrations-')) });
  // The sweep connects as a service does: its schema first on the search path, statements cancelled after 5 s. Filling
  // the tables and building the indexes take longer, on a connection of their own.
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1, options: `-c search_path=${SCHEMA}` });
  const service = new pg.Pool({ connectionString: DATABASE_URL, max: 1, statement_timeout: 5000, options: `-c search_path=${SCHEMA}` });
  const log = createLogger({ LOG_LEVEL: 'silent' }, 'bench-retention');
  const sweeper = new RetentionSweeper(
    service,
    { outboxRetentionHours: 24, inboxRetentionHours: 192, batchSize: BATCH, intervalMs: 60_000 },
    log,
  );
  const old = Math.floor(ROWS / 2);
  try {
    console.log(
      `${ROWS.toLocaleString('en')} rows per table, batches of ${BATCH}, Postgres ${(await pool.query('SHOW server_version')).rows[0].server_version}`,
    );

    // In insertion order, as an outbox fills: the oldest half published two days ago, then rows published within the
    // hour, the newest tenth not published yet. Payloads are event envelopes of about 400 bytes.
    let started = performance.now();
    await pool.query(
      `INSERT INTO outbox (id, subject, organization_id, payload, created_at, published_at)
       SELECT gen_random_uuid(), 'bookings.booking.created', gen_random_uuid(),
              jsonb_build_object('id', gen_random_uuid(), 'type', 'bookings.booking.created', 'occurred_at', now(),
                'organization_id', gen_random_uuid(), 'correlation_id', null,
                'data', jsonb_build_object('id', gen_random_uuid(), 'schedule_id', gen_random_uuid(), 'status', 'CONFIRMED',
                  'start_time', now(), 'end_time', now() + interval '30 minutes', 'title', repeat('x', 120))),
              ts, CASE WHEN i > $1 * 0.9 THEN NULL ELSE ts + interval '1 second' END
         FROM generate_series(1, $1::int) AS i,
              LATERAL (SELECT CASE WHEN i <= $2 THEN now() - interval '48 hours' + i * interval '1 ms'
                                   ELSE now() - interval '1 hour' + (i - $2) * interval '1 ms' END AS ts) t`,
      [ROWS, old],
    );
    await pool.query('ANALYZE outbox');
    console.log(`filled outbox in ${seconds(started)} (${await size(pool, 'outbox')})`);
    await indexCost(
      pool,
      'outbox_published_idx',
      'CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL',
    );
    await sweepAndReport(pool, sweeper, 'outbox');
    const left = (await pool.query(`SELECT count(*) FILTER (WHERE published_at IS NULL) AS pending, count(*) AS total FROM outbox`))
      .rows[0];
    console.log(
      `  left: ${Number(left.total).toLocaleString('en')} rows, of which ${Number(left.pending).toLocaleString('en')} unpublished`,
    );

    started = performance.now();
    await pool.query(
      `INSERT INTO inbox (consumer, event_id, processed_at)
       SELECT 'scheduling-bookings', gen_random_uuid(),
              CASE WHEN i <= $2 THEN now() - interval '10 days' + i * interval '1 ms' ELSE now() - interval '1 day' + i * interval '1 ms' END
         FROM generate_series(1, $1::int) AS i`,
      [ROWS, old],
    );
    await pool.query('ANALYZE inbox');
    console.log(`filled inbox in ${seconds(started)} (${await size(pool, 'inbox')})`);
    await indexCost(pool, 'inbox_processed_idx', 'CREATE INDEX inbox_processed_idx ON inbox (processed_at)');
    await sweepAndReport(pool, sweeper, 'inbox');
  } finally {
    await pool.end();
    await service.end();
  }
}

/** What migration 0004 costs on a table this big: the index is dropped and built again, timed. */
async function indexCost(pool, index, create) {
  await pool.query(`DROP INDEX ${index}`);
  const started = performance.now();
  await pool.query(create);
  console.log(`  migration 0004's ${index} on it: ${seconds(started)} (writes to the table wait that long, once)`);
}

async function sweepAndReport(pool, sweeper, table) {
  const started = performance.now();
  const result = await sweeper.sweep();
  const ms = performance.now() - started;
  const deleted = result.outbox + result.inbox;
  console.log(
    `  sweep: ${deleted.toLocaleString('en')} rows deleted in ${result.batches} batches, ${(ms / 1000).toFixed(2)} s, ` +
      `${Math.round(deleted / (ms / 1000)).toLocaleString('en')} rows/s, mean batch ${(ms / result.batches).toFixed(1)} ms, ` +
      `slowest batch ${result.slowestBatchMs.toFixed(1)} ms (statement_timeout 5000 ms)`,
  );
  const idle = performance.now();
  const again = await sweeper.sweep();
  console.log(
    `  a sweep that finds nothing: ${(performance.now() - idle).toFixed(1)} ms (${again.batches} statements); table now ${await size(pool, table)} until vacuum reuses it`,
  );
}

async function size(pool, table) {
  const { rows } = await pool.query('SELECT pg_size_pretty(pg_total_relation_size($1::regclass)) AS size', [table]);
  return rows[0].size;
}

function seconds(started) {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

await main();
