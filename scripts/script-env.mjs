// The environment variables that no service's config schema parses: those read by the scripts (`npm start`, the
// bench, the soak, the test harness) and the OpenTelemetry SDK's. Each is documented with zod `.meta()` as the
// services' fields are, so that `npm run docs:config` writes them into docs/configuration.md from here. The scripts
// read theirs through `readScriptEnv` (empty counts as unset, as for every service variable); the dev stack, the test
// harness and the SDK, which live in TypeScript or in a library, read theirs themselves, and their schemas here only
// document them (the dev stack's is its own, imported from there).
import { INFRA_MODES, startEnvSchema } from '@app/dev-stack';
import { z } from 'zod';

const count = (fallback) => z.coerce.number().min(0).default(fallback);
const databaseUrl = (name) => z.url().default(`postgres://postgres@127.0.0.1:5432/${name}`);
/** `0` turns the step off; anything else (or unset) leaves it on. */
const onUnlessZero = z.string().default('1');

const benchEnv = z.object({
  BENCH_URL: z.url().optional().meta({
    description: 'run against this running gateway (with `DATABASE_URL` and `ADMIN_TOKEN` set) instead of a fresh local stack',
    defaultText: 'unset (a fresh local stack)',
  }),
  BENCH_DATABASE_URL: databaseUrl('scheduling_shop_bench').meta({
    description: "the fresh stack's database, recreated each run",
  }),
  BENCH_PORT: count(3200).meta({
    description: "the fresh stack's gateway port; the bare ceiling pair takes that + 90 and + 91, the framework's proxy + 92",
  }),
  BENCH_CONNECTIONS: count(50).meta({ description: "autocannon's connections per scenario" }),
  BENCH_DURATION: count(10).meta({ description: 'seconds per scenario' }),
  BENCH_ONLY: z
    .string()
    .optional()
    .meta({ description: 'a regex (case-insensitive) of the scenario names to run', defaultText: 'unset (all)' }),
  BENCH_CEILING: onUnlessZero.meta({ description: '`0` skips the bare ceiling baselines' }),
  BENCH_STEADY: onUnlessZero.meta({ description: '`0` skips the steady-load run of each scenario' }),
  BENCH_REPEAT: count(1).meta({
    description:
      'rounds of the whole set on one stack: with more than one, a summary gives each scenario its range over the rounds, how many met the steady p99 goal, and what the slow requests of each miss were doing (docs/benchmarks.md)',
  }),
  BENCH_CPU_PROF: z.string().optional().meta({
    description: 'a folder: every service runs with `--cpu-prof` and writes its profile there',
    defaultText: 'unset',
  }),
  // Read in bench/lib and bench/scenarios, which take them from process.env themselves.
  BENCH_SETTLE: onUnlessZero.meta({
    description:
      "`0` skips the wait, before each measured run, until the stack's processes together stay under `BENCH_SETTLE_SHARE` of a core for a whole second (at most 120 s)",
  }),
  BENCH_SETTLE_SHARE: z.coerce.number().min(0).max(1).default(0.25).meta({
    description: "the share of a core under which the stack's processes count as settled",
  }),
  BENCH_STEADY_TRACE: z.string().optional().meta({
    description:
      "a file: each steady run's requests are appended to it, one line each (when it was due, its latency, its second within the run)",
    defaultText: 'unset',
  }),
  BENCH_WEBHOOK_BOOKINGS: count(1000).meta({ description: 'bookings the webhook backlog scenario creates flat out to 10 endpoints' }),
  BENCH_WEBHOOK_DRAIN_S: count(120).meta({ description: 'how long the webhook scenario waits for every delivery to arrive' }),
});

const peersEnv = z.object({
  PEERS_DURATION: count(60).meta({
    description: 'seconds per run of `npm run bench:peers` (Medusa answers in waves: 10 s would catch one or two)',
  }),
  PEERS_WARMUP: count(5).meta({ description: 'seconds of unmeasured load before each run' }),
  PEERS_CONNECTIONS: count(10).meta({ description: "autocannon's connections per run, the same for both systems" }),
  PEERS_DATABASE_URL: databaseUrl('scheduling_shop_peers').meta({ description: "this system's database (recreated by every run)" }),
  PEERS_PORT: count(0).meta({ description: "this system's gateway port (`0`: every process on a port the OS picks)" }),
  PEERS_MEDUSA_DATABASE_URL: databaseUrl('peer_medusa').meta({
    description: "the peer's database: kept between runs, seeded again only when its seed is missing, incomplete or of another catalog",
  }),
  PEERS_MEDUSA_PORT: count(0).meta({ description: "the peer's port (`0`: a free one)" }),
  PEERS_RESEED: z.string().default('0').meta({ description: "`1` drops the peer's database and seeds it again" }),
  PEERS_MEDUSA_LOG_LEVEL: z.string().default('warn').meta({
    description: "the peer's `LOG_LEVEL` (its default, `http`, logs a line per request)",
  }),
});

const soakEnv = z.object({
  SOAK_DATABASE_URL: databaseUrl('scheduling_shop_soak').meta({ description: "the soak stack's database" }),
  SOAK_PORT: count(3600).meta({
    description:
      "the soak stack's gateway port; its services take the next six and replicas + 10 on (3300 would put webhooks on MariaDB's 3306)",
  }),
  SOAK_REPLICAS: count(1).meta({ description: 'replicas of each service (`2` for the scale-out run)' }),
  SOAK_CONNECTIONS: count(50).meta({ description: 'connections of the mixed load' }),
  SOAK_DURATION: count(60).meta({ description: 'seconds of mixed load' }),
  SOAK_WARMUP: count(10).meta({ description: 'seconds of warm-up before the measured load' }),
});

const testEnv = z.object({
  TEST_INFRA: z.enum(INFRA_MODES).default('auto').meta({
    description:
      "where the suites' Postgres and NATS come from, chosen as `npm start` chooses them: `auto` the local servers when reachable, else an embedded Postgres (in a temporary folder) and a `nats-server` child from PATH, else containers; `local` only the local servers; `embedded` the embedded ones even beside running local servers; `containers` always (throwaway) containers (see [Tests](testing.md#tests))",
  }),
  TEST_POSTGRES_URL: databaseUrl('postgres').meta({
    description: 'the Postgres the suites use (each suite creates its own database)',
  }),
  TEST_NATS_URL: z.string().default('nats://127.0.0.1:4222').meta({
    description: 'the NATS the suites use (each suite takes its own prefix)',
  }),
  TEST_REDIS_URL: z.string().default('redis://127.0.0.1:6379').meta({
    description: "the Redis of the gateway's shared rate-limit tests",
  }),
  TEST_LOG_LEVEL: z.string().default('silent').meta({
    description:
      "log level of the services under test (which also get `NATS_STREAM_MAX_BYTES` of 64 MiB, since NATS reserves each stream's `max_bytes` on its disk)",
  }),
  NATS_SERVER_BIN: z.string().default('nats-server').meta({
    description: 'the `nats-server` binary that the tests which stop and restart NATS run as their own server',
  }),
  E2E_LOGS: z.string().optional().meta({ description: "set: the e2e stack's logs are printed", defaultText: 'unset' }),
  CHROMIUM_BIN: z.string().default('chromium').meta({ description: 'the browser of the browser tests' }),
  COMPOSE_TEST_FILES: z.string().optional().meta({
    description: 'compose files the compose test adds, comma-separated (`ops/compose/pgbouncer.yml` runs it through PgBouncer)',
    defaultText: 'unset',
  }),
  PRISMA_SCHEMA_ENGINE_BINARY: z.string().optional().meta({
    description: '`prisma generate` needs only some existing file there, since the engine cannot be downloaded here',
    defaultText: 'the Node binary',
  }),
});

const tracingEnv = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional().meta({
    description:
      'the OTLP collector (`http://collector:4318`); it, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_TRACES_EXPORTER` turns tracing on, see [Tracing](operations.md#tracing)',
    defaultText: 'unset: tracing off, the SDK is not even loaded',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional().meta({
    description: 'the full URL of the traces endpoint (`…/v1/traces`); turns tracing on too',
    defaultText: 'unset',
  }),
  OTEL_TRACES_EXPORTER: z.string().optional().meta({
    description:
      '`otlp`, `console` (spans on stdout, beside the log lines) or `zipkin`; set alone it turns tracing on too (with `otlp`: to `localhost:4318`); `none` keeps it off',
    defaultText: 'unset (`otlp` once tracing is on)',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .default('http/protobuf')
    .meta({ description: 'the OTLP protocol (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` for the traces alone)' }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .optional()
    .meta({ description: 'the OTLP protocol of the traces', defaultText: '`OTEL_EXPORTER_OTLP_PROTOCOL`' }),
  OTEL_SERVICE_NAME: z.string().optional().meta({
    description: 'the `service.name` of its spans (`service.name` in `OTEL_RESOURCE_ATTRIBUTES` works too)',
    defaultText: "the service's name (`gateway`, `bookings`, …)",
  }),
  OTEL_TRACES_SAMPLER: z.string().default('parentbased_always_on').meta({
    description:
      'which traces are kept: `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG=0.1` keeps a tenth, decided at the gateway and followed by every service',
  }),
  OTEL_TRACES_SAMPLER_ARG: z.string().optional().meta({ description: "the sampler's argument (a ratio)", defaultText: 'unset' }),
  OTEL_BSP_SCHEDULE_DELAY: count(5000).meta({ description: 'spans are exported in batches at most this many ms apart' }),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count(512).meta({ description: 'spans per exported batch, at most' }),
  OTEL_BSP_MAX_QUEUE_SIZE: count(2048).meta({ description: 'spans waiting for export past this many are dropped' }),
  OTEL_SDK_DISABLED: z.stringbool().default(false).meta({
    description:
      "`true`: tracing stays off whatever else is set. The SDK's other standard variables (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_PROPAGATORS`, `OTEL_LOG_LEVEL`, …) apply as documented by OpenTelemetry; metrics and logs stay with `/metrics` and stdout",
  }),
});

/** The sections of docs/configuration.md that come from here, in order: who reads the variables, and their schema. */
export const SCRIPT_ENV_SECTIONS = [
  {
    title: '`npm start`',
    readBy: '`@app/dev-stack` (packages/dev-stack: `npm start`, the bench, the soak, the e2e stack)',
    schema: startEnvSchema,
  },
  { title: '`npm run bench`', readBy: 'bench/run.mjs, bench/lib and bench/scenarios', schema: benchEnv },
  { title: '`npm run bench:peers`', readBy: 'bench/peers (not part of CI)', schema: peersEnv },
  { title: '`npm run soak`', readBy: 'bench/soak.mjs', schema: soakEnv },
  { title: 'Tests', readBy: 'the test harness (packages/service-testing, e2e/)', schema: testEnv },
  { title: 'Tracing', readBy: "every service's process, through the OpenTelemetry SDK", schema: tracingEnv },
];

/** The variables of `schema` from `env`, an empty one counting as unset; a bad one throws, naming it. */
function readScriptEnv(schema, env = process.env) {
  const known = Object.fromEntries(Object.keys(schema.shape).flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const result = schema.safeParse(known);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
  throw new Error(`Invalid environment:\n${problems}`);
}

export const readBenchEnv = (env) => readScriptEnv(benchEnv, env);
export const readPeersEnv = (env) => readScriptEnv(peersEnv, env);
export const readSoakEnv = (env) => readScriptEnv(soakEnv, env);
