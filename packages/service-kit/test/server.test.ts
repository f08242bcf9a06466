import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  baseConfigSchema,
  buildService,
  createLogger,
  createPool,
  isTransientError,
  type KitTuningOverrides,
  loadConfig,
  runMigrationStep,
  startService,
  type RunningService,
  type ServiceDefinition,
} from '../src/index.js';
import { capturedLog, PortForwarder, testEnv, trickleRequest } from '@app/service-testing';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** A service of the kit alone (no routes of its own), started as server.ts starts one, listening on a free port. */
function startKitService(
  env: Record<string, string>,
  tuning: KitTuningOverrides = {},
): Promise<RunningService<typeof baseConfigSchema._output>> {
  const definition: ServiceDefinition<typeof baseConfigSchema._output> = {
    name: 'kit-server',
    schema: `kit_${randomBytes(4).toString('hex')}`,
    migrationsDir: mkdtempSync(join(tmpdir(), 'no-migrations-')),
    build: async (infra) => ({ app: await buildService({ name: 'kit-server', log: infra.log, readiness: infra.readiness }) }),
  };
  return startService(definition, loadConfig(baseConfigSchema, testEnv(env)), { tuning });
}

describe('a service’s HTTP server', () => {
  describe('with METRICS_TOKEN and short HTTP timeouts', () => {
    let service: RunningService<typeof baseConfigSchema._output>;
    beforeAll(async () => {
      service = await startKitService({ METRICS_TOKEN }, { httpTimeouts: { requestTimeout: 1000, headersTimeout: 1000 } });
    });
    afterAll(() => service.stop());

    it('when a body is trickled one byte at a time, then 408 REQUEST_TIMEOUT within the timeout and the connection is closed', async () => {
      const head = 'POST /api/v1/ping/kit-server HTTP/1.1\r\nHost: kit\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n';
      const { response, closedAfterMs } = await trickleRequest(service.url ?? '', head);
      expect(response).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual({
        error: 'The request did not arrive within the time limit',
        code: 'REQUEST_TIMEOUT',
      });
      expect(closedAfterMs).toBeLessThan(2500);
    });

    it('when the headers are trickled, then the connection is cut within the timeout too', async () => {
      const { response, closedAfterMs } = await trickleRequest(service.url ?? '', 'GET /healthz HTTP/1.1\r\nHost: kit\r\nX-Slow: ');
      expect(response).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAfterMs).toBeLessThan(2500);
    });

    it.each([
      ['no Authorization header', undefined],
      ['another token', 'Bearer not-the-metrics-token-at-all'],
    ])('when /metrics is asked with %s, then 401 UNAUTHORIZED in the error shape', async (_case, authorization) => {
      const response = await fetch(`${service.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Missing or invalid metrics token', code: 'UNAUTHORIZED' });
    });

    it('when /metrics is asked with the token, then the Prometheus text', async () => {
      const response = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/http_requests_total/);
    });
  });

  describe('with METRICS_PORT', () => {
    let service: RunningService<typeof baseConfigSchema._output>;
    beforeAll(async () => {
      service = await startKitService({ METRICS_PORT: '0' });
    });
    afterAll(() => service.stop());

    it('when /metrics is asked on the API port, then 404; on the metrics port, then the metrics', async () => {
      const onApi = await fetch(`${service.url}/metrics`);
      expect(onApi.status).toBe(404);
      expect(await onApi.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(service.metricsUrl).toBeDefined();
      expect(service.metricsUrl).not.toBe(service.url);
      const onMetrics = await fetch(`${service.metricsUrl}/metrics`);
      expect(onMetrics.status).toBe(200);
      expect(await onMetrics.text()).toMatch(/process_cpu_seconds_total/);
      expect((await fetch(`${service.metricsUrl}/api/v1/ping/kit-server`)).status).toBe(404); // nothing else there
    });
  });
});

describe('a service starting before Postgres and NATS answer', () => {
  const forwarders: PortForwarder[] = [];
  afterEach(async () => {
    for (const forwarder of forwarders.splice(0)) await forwarder.close();
  });
  /** An address of the run's server (`url`) that closes every connection until `arrive()` forwards them there. */
  const notYetThere = async (url: string) => {
    const forwarder = await PortForwarder.open();
    forwarders.push(forwarder);
    const target = new URL(url);
    const address = new URL(url);
    address.host = `127.0.0.1:${forwarder.port}`;
    return { url: address.toString(), arrive: () => forwarder.pointAt(target.hostname, Number(target.port)) };
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('when Postgres answers after 1 s and NATS after 2 s, then the service waits for both and starts ready', async () => {
    const postgres = await notYetThere(inject('databaseUrl'));
    const nats = await notYetThere(inject('natsUrl'));
    const starting = startKitService({ DATABASE_URL: postgres.url, NATS_URL: nats.url, STARTUP_WAIT_MS: '30000' });
    const outcome = starting.then(
      () => 'started',
      (error: unknown) => `failed: ${(error as Error).message}`,
    );
    await sleep(1000);
    postgres.arrive();
    await sleep(1000);
    // Still waiting for NATS (without the wait it would have failed on the first refusal).
    expect(await Promise.race([outcome, sleep(0).then(() => 'waiting')])).toBe('waiting');
    nats.arrive();
    expect(await outcome).toBe('started');
    const service = await starting;
    try {
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('when NATS never answers, then the start fails with its error once STARTUP_WAIT_MS has passed, not before', async () => {
    const nats = await notYetThere(inject('natsUrl'));
    const started = Date.now();
    const error = await startKitService({ NATS_URL: nats.url, STARTUP_WAIT_MS: '1500' }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(isTransientError(error)).toBe(true); // NATS' own error, not one of the wait's
  });

  it('when the migration step starts before Postgres answers, then it waits and migrates the schema', async () => {
    const postgres = await notYetThere(inject('databaseUrl'));
    const schema = `kit_${randomBytes(4).toString('hex')}`;
    const migrating = runMigrationStep(
      { name: 'kit-migrate', schema, dir: mkdtempSync(join(tmpdir(), 'no-migrations-')) },
      testEnv({ DATABASE_URL: postgres.url, STARTUP_WAIT_MS: '30000' }),
    );
    await sleep(1000);
    postgres.arrive();
    await migrating;
    const pool = createPool(inject('databaseUrl'), { max: 1, log: createLogger({ LOG_LEVEL: 'silent' }, 'kit-migrate'), schema });
    try {
      const { rows } = await pool.query(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'outbox'",
        [schema],
      );
      expect(rows).toEqual([{ name: 'outbox' }]); // the kit's own migration, applied once Postgres answered
    } finally {
      await pool.end();
    }
  });

  it('when Postgres refuses the role, then the start fails at once: waiting would not change it', async () => {
    const unknownRole = new URL(inject('databaseUrl'));
    unknownRole.username = 'no_such_role_at_all';
    const started = Date.now();
    await expect(startKitService({ DATABASE_URL: unknownRole.toString(), STARTUP_WAIT_MS: '60000' })).rejects.toThrow(
      /no_such_role_at_all/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('request log lines', () => {
  it('when a query carries OAuth code and state or an email, then the line keeps the path and the allowed parameters only', async () => {
    const { lines, log } = capturedLog('kit-log');
    const app = await buildService({ name: 'kit-log', log });
    app.get('/things', async () => ({ data: [] }));
    await app.ready();

    await app.inject({
      url: '/things?code=4%2F0AQlEd-secret-code&state=signed.state.token&attendee_email=ada%40example.com&limit=5&offset=10&scheduleId=s1&startDate=2026-03-08',
    });
    await app.close();

    const line = JSON.parse(lines.find((text) => text.includes('request completed')) ?? '{}');
    expect(line.url).toBe(
      '/things?code=[redacted]&state=[redacted]&attendee_email=[redacted]&limit=5&offset=10&scheduleId=s1&startDate=2026-03-08',
    );
    const all = lines.join('\n');
    // The address's local part with what follows it: a bare 'ada' also turns up in a request id's hex once in a while.
    for (const secret of ['secret-code', 'signed.state.token', 'ada%40', 'ada@', 'example.com']) expect(all).not.toContain(secret);
  });

  it('when a route logs at warn on a warn-level logger, then its line carries the request id; info lines are not written', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const log = createLogger({ LOG_LEVEL: 'warn' }, 'kit-log', sink);
    const app = await buildService({ name: 'kit-log', log, verifyCallerAssertion: false });
    app.get('/things', async (request) => {
      request.log.info('not written');
      request.log.warn({ detail: 1 }, 'worth a look');
      return { data: [], level: request.log.level };
    });
    await app.ready();

    const response = await app.inject({ url: '/things', headers: { 'x-request-id': 'req-lazy-1' } });
    await app.close();

    expect(response.json()).toEqual({ data: [], level: 'warn' });
    const written = lines.map((line) => JSON.parse(line));
    expect(written).toEqual([expect.objectContaining({ msg: 'worth a look', detail: 1, request_id: 'req-lazy-1', service: 'kit-log' })]);
  });
});
