import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineRequest, defineStream } from '@app/contracts';
import {
  AppError,
  baseConfigSchema,
  buildService,
  consumerTask,
  eventHandler,
  loadConfig,
  OutboxRelay,
  recordEvent,
  startService,
  withTransaction,
  type BaseConfig,
  type RunningService,
  type ServiceDefinition,
} from '../src/index.js';
import { metricValue, OwnNatsServer, testEnv } from '@app/service-testing';
import { eventually } from './support/kit-env.js';

const thingCreated = defineEvent('kit.metered.created', z.object({ name: z.string() }));
const STREAM = defineStream('KIT_METERED', [thingCreated]);
const answer = defineRequest('kit.metered.answer', z.object({ fail: z.boolean() }), z.object({ ok: z.boolean() }));
const unserved = defineRequest('kit.metered.nobody', z.object({}), z.object({}));
const DURABLE = 'kit-metered-projection';

/**
 * A service of the kit with the async path's moving parts: an outbox relay, a consumer of its own stream (whose
 * handler the test can hold or make fail) and a request endpoint. It runs on a NATS server of the test's own, so the
 * test can stop NATS.
 */
function meteredService(nats: OwnNatsServer, handling: Handling) {
  const definition: ServiceDefinition<BaseConfig> = {
    name: 'kit-metered',
    schema: `kit_${randomBytes(4).toString('hex')}`,
    migrationsDir: mkdtempSync(join(tmpdir(), 'no-migrations-')),
    build: async (infra) => {
      const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: STREAM, pollMs: 100 });
      await infra.bus.serve(answer, async ({ fail }) => {
        if (fail) throw new AppError('NOT_FOUND', 'Nothing to answer');
        return { ok: true };
      });
      const consumer = consumerTask(infra.bus, {
        durable: DURABLE,
        stream: STREAM,
        pool: infra.pool,
        handlers: [
          eventHandler(thingCreated, async (event) => {
            await handling.hold;
            // The database being away is retried; any other error dead-letters the event.
            if (handling.failNames.has(event.data.name)) throw Object.assign(new Error('database away'), { code: 'ECONNREFUSED' });
            if (event.data.name.startsWith('poison')) throw new Error('the handler refuses this one');
          }),
        ],
      });
      const app = await buildService({ name: 'kit-metered', log: infra.log, readiness: infra.readiness });
      return { app, background: [relay, consumer] };
    },
  };
  return startService(definition, loadConfig(baseConfigSchema, testEnv({ NATS_URL: nats.url, DATABASE_POOL_SIZE: '3' })), {
    listen: false,
  });
}

interface Handling {
  hold?: Promise<void>;
  /** Events whose handling fails for a transient reason while their name is in here. */
  failNames: Set<string>;
}

const sample = (service: RunningService<BaseConfig>, name: string, labels: Record<string, string> = {}) =>
  metricValue(service.app, name, labels);

const record = (service: RunningService<BaseConfig>, name: string) =>
  withTransaction(service.infra.pool, (tx) => recordEvent(tx, thingCreated, { name }, { organizationId: randomUUID() }));

describe('async path metrics on /metrics', () => {
  let nats: OwnNatsServer;
  let service: RunningService<BaseConfig>;
  const handling: Handling = { failNames: new Set() };

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    service = await meteredService(nats, handling);
  });
  afterAll(async () => {
    await service.stop();
    await nats.destroy();
  });

  it('when NATS is down, then outbox pending and the oldest age rise; when it is back, then they fall and relay publishes are counted', async () => {
    await eventually(async () => ((await sample(service, 'outbox_pending_events')) === 0 ? true : undefined));
    const publishedBefore = (await sample(service, 'outbox_relay_published_events_total')) ?? 0;
    await nats.stop();
    try {
      await record(service, 'while-down-1');
      await record(service, 'while-down-2');
      expect(await sample(service, 'outbox_pending_events')).toBe(2);
      await eventually(async () => ((await sample(service, 'outbox_oldest_pending_age_seconds')) ?? 0) > 0.2 || undefined);
      // The relay's failed attempts are timed as errors.
      await eventually(
        async () => ((await sample(service, 'outbox_relay_publish_duration_seconds_count', { outcome: 'error' })) ?? 0) > 0 || undefined,
      );
    } finally {
      await nats.resume();
    }
    await eventually(async () => ((await sample(service, 'outbox_pending_events')) === 0 ? true : undefined), 20_000);
    expect(await sample(service, 'outbox_oldest_pending_age_seconds')).toBe(0);
    expect(await sample(service, 'outbox_relay_published_events_total')).toBe(publishedBefore + 2);
    expect(await sample(service, 'outbox_relay_publish_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('when requests are answered, refused or unanswered, then their durations are counted by subject and outcome', async () => {
    const count = (subject: string, outcome: string) =>
      sample(service, 'nats_request_duration_seconds_count', { subject, outcome }).then((value) => value ?? 0);
    const before = { ok: await count(answer.subject, 'ok'), error: await count(answer.subject, 'error') };
    await service.infra.bus.request(answer, { fail: false });
    await service.infra.bus.request(answer, { fail: false });
    await expect(service.infra.bus.request(answer, { fail: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.infra.bus.request(unserved, {})).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(await count(answer.subject, 'ok')).toBe(before.ok + 2);
    expect(await count(answer.subject, 'error')).toBe(before.error + 1);
    expect(await count(unserved.subject, 'unavailable')).toBe(1);
  });

  const durable = () => ({ consumer: service.infra.bus.streamName(DURABLE) });

  it('when the consumer is stopped, then its pending count rises; when it is held, then ack-pending does (bounded: the backlog stays on the server); an event failing for a transient reason shows as redelivered', async () => {
    const consumer = service.background?.[1]; // [relay, consumer]
    if (!consumer) throw new Error('the consumer task is missing');
    await consumer.stop();
    let release = () => {};
    handling.hold = new Promise((resolve) => (release = resolve));
    try {
      for (let i = 0; i < 300; i += 1) await record(service, `waiting-${i}`);
      await eventually(
        async () => ((await sample(service, 'nats_consumer_pending_messages', durable())) === 300 ? true : undefined),
        10_000,
      );
      await consumer.start();
      // Delivered, but the handler holds them: they wait for their acks. The consumer takes no more than it can apply
      // soon (one batch being applied, one waiting, one pulled: 64 each); the rest of the backlog stays on the server.
      const held = await eventually(async () => {
        const ackPending = (await sample(service, 'nats_consumer_ack_pending_messages', durable())) ?? 0;
        return ackPending > 0 ? ackPending : undefined;
      }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(held).toBeLessThanOrEqual(3 * 64);
      expect(await sample(service, 'nats_consumer_ack_pending_messages', durable())).toBeLessThanOrEqual(3 * 64);
      expect(await sample(service, 'nats_consumer_pending_messages', durable())).toBeGreaterThanOrEqual(300 - 3 * 64);
    } finally {
      release();
      handling.hold = undefined;
    }
    await eventually(
      async () => ((await sample(service, 'nats_consumer_ack_pending_messages', durable())) === 0 ? true : undefined),
      10_000,
    );

    handling.failNames.add('refused');
    await record(service, 'refused');
    await eventually(async () => ((await sample(service, 'nats_consumer_redelivered_messages', durable())) ?? 0) >= 1 || undefined, 10_000);
    handling.failNames.delete('refused');
    await eventually(
      async () => ((await sample(service, 'nats_consumer_ack_pending_messages', durable())) === 0 ? true : undefined),
      15_000,
    );
    expect(await sample(service, 'nats_consumer_redelivered_messages', durable())).toBe(0);
  });

  it('when a handler refuses an event, then it is dead-lettered and counted by consumer and type', async () => {
    const count = () =>
      sample(service, 'events_dead_lettered_total', { consumer: DURABLE, type: thingCreated.subject }).then((v) => v ?? 0);
    const before = await count();
    await record(service, 'poison-1');
    await eventually(async () => ((await count()) === before + 1 ? true : undefined), 10_000);
  });

  it('when every pool connection is taken, then in-use equals the pool size and a waiting query is counted', async () => {
    const { pool } = service.infra;
    const taken = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    const waiting = pool.query('SELECT 1');
    try {
      expect(await sample(service, 'db_pool_connections', { state: 'in_use' })).toBe(3);
      expect(await sample(service, 'db_pool_waiting_requests')).toBeGreaterThanOrEqual(1);
    } finally {
      for (const client of taken) client.release();
      await waiting;
    }
    // The background tasks' queries that waited meanwhile get their connections too.
    await eventually(async () => ((await sample(service, 'db_pool_waiting_requests')) === 0 ? true : undefined));
  });

  it('when the committed Grafana dashboard is read, then every metric it queries is one a service serves', async () => {
    const dashboard = readFileSync(new URL('../../../ops/grafana/async-path-dashboard.json', import.meta.url), 'utf8');
    const queried = new Set([...dashboard.matchAll(/([a-z][a-z0-9_]*)(?=\{|\[)/g)].map((match) => match[1] ?? ''));
    // Samples, and the declared names of counters that have none yet (a dead letter, say).
    const served = new Set(
      (await service.app.inject({ url: '/metrics' })).body.split('\n').map((line) => /^(?:# TYPE )?([a-z][a-z0-9_]*)/.exec(line)?.[1]),
    );
    // calendar-sync's own counter is served by that service (its sync test reads it).
    const missing = [...queried].filter((name) => !served.has(name) && !name.startsWith('calendar_sync_'));
    expect(queried.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
