import pg from 'pg';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bookingCreatedEvent,
  BOOKINGS_STREAM,
  bookingRecordSchema,
  createdWebhookEndpointSchema,
  dataEnvelope,
  errorBodySchema,
} from '@app/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { NatsCluster } from './nats-cluster.js';

const PAUSE_MS = 20_000;
/** A request that has not answered by then hangs: the services' own timeouts are far below it. */
const HANG_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  at: number;
  ms: number;
  status: number;
}

/** p99 of the latencies of outcomes within [from, to] (ms since the epoch). */
function p99(outcomes: Outcome[], from: number, to: number): number {
  const latencies = outcomes
    .filter((outcome) => outcome.at >= from && outcome.at <= to)
    .map((outcome) => outcome.ms)
    .sort((a, b) => a - b);
  return latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
}

describe('a three-node NATS cluster with R3 streams, under bookings, registrations and webhooks, losing nodes', () => {
  const prefix = `${inject('natsPrefix')}_cluster`;
  let cluster: NatsCluster;
  let receiver: WebhookReceiver;
  let stack: E2eStack;
  let db: pg.Client;
  const stream = `${prefix}_${BOOKINGS_STREAM.name}`;

  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    receiver = await WebhookReceiver.start();
    stack = await startE2eStack({
      NATS_URL: cluster.url,
      NATS_PREFIX: prefix,
      NATS_STREAM_REPLICAS: '3',
      CALENDAR_SYNC_POLL_MS: '3600000',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    });
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    await receiver?.close();
    await cluster?.stop();
  }, 120_000);

  it('when the stream leader is killed, a node paused 20 s and a node restarted with its store wiped, then after each nothing is lost or done twice, and the services reconnect by themselves', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const endpoint = await stack.call('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: receiver.url, events: ['booking.created'] },
    });
    expect(endpoint.status).toBe(201);
    dataEnvelope(createdWebhookEndpointSchema).parse(endpoint.body);
    const event = await stack.call('POST', '/api/v1/events', {
      key,
      body: { title: 'Cluster night', start_date: '2031-01-01', slots: 100_000, status: 'published' },
    });
    const eventId = dataEnvelope(z.object({ id: z.string() })).parse(event.body).data.id;
    const pids = stack.children.map(({ child }) => child.pid);

    const created: string[] = [];
    let registered = 0;
    const outcomes: Outcome[] = [];
    const problems: string[] = [];
    let slot = 0;
    let running = true;
    const timed = async (send: () => Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: unknown } | null> => {
      const started = Date.now();
      const answer = await Promise.race([send(), sleep(HANG_MS).then(() => null)]);
      if (!answer) {
        problems.push(`a request hung past ${HANG_MS} ms`);
        return null;
      }
      outcomes.push({ at: started, ms: Date.now() - started, status: answer.status });
      if (answer.status !== 201 && answer.status !== 503) problems.push(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (answer.status === 503) expect(errorBodySchema.parse(answer.body).code).toBe('UPSTREAM_UNAVAILABLE');
      return answer;
    };
    const booker = async () => {
      while (running) {
        const interval = quarterHour(slot++);
        const answer = await timed(() =>
          stack.call('POST', '/api/v1/bookings', {
            key,
            body: { schedule_id: scheduleId, ...interval, attendee: { name: 'Nia', email: 'nia@example.com' } },
          }),
        );
        if (answer?.status === 201) created.push(dataEnvelope(bookingRecordSchema).parse(answer.body).data.id);
        else await sleep(200);
      }
    };
    const registrant = async () => {
      while (running) {
        const answer = await timed(() =>
          stack.call('POST', `/api/v1/events/${eventId}/registrations`, { key, body: { name: 'Ola', email: 'ola@example.com' } }),
        );
        if (answer?.status === 201) registered += 1;
        else await sleep(200);
      }
    };
    let load: Promise<unknown> = Promise.resolve();
    const startLoad = () => {
      running = true;
      load = Promise.all([booker(), booker(), booker(), registrant()]);
    };
    const stopLoad = async () => {
      running = false;
      await load;
    };

    /** Every 201 booking has one created event in the stream, a row in scheduling's projection and a webhook delivery; the event's count is the 201 registrations'. */
    const nothingLost = async (phase: string) => {
      await expect.poll(async () => created.filter((id) => !receiver.arrivalOf(id)).length, { timeout: 60_000, interval: 500 }).toBe(0);
      // Scheduling's consumer applies them on its own schedule (after a leader change its pull resumes later than the
      // webhooks'): every one must arrive, so it is waited for as the deliveries are.
      const projected = async () =>
        (
          await db.query<{ id: string }>(
            'SELECT booking_id::text AS id FROM scheduling.booking_intervals WHERE booking_id = ANY($1::uuid[])',
            [created],
          )
        ).rows.length;
      await expect
        .poll(projected, { timeout: 90_000, interval: 500, message: `${phase}: bookings in the scheduling projection` })
        .toBe(created.length);
      const events = await createdEvents();
      for (const id of created) expect(events.get(id), `${phase}: created events of ${id}`).toBe(1);
      const delivered = new Set(receiver.received.map((delivery) => (JSON.parse(delivery.body) as { data: { id: string } }).data.id));
      expect(
        [...delivered].filter((id) => !created.includes(id)),
        `${phase}: deliveries of bookings never created`,
      ).toEqual([]);
      const counted = await stack.call('GET', `/api/v1/events/${eventId}?include_counts=true`, { key });
      expect(
        dataEnvelope(z.object({ counts: z.object({ registrations: z.number() }) })).parse(counted.body).data.counts.registrations,
        `${phase}: places taken`,
      ).toBe(registered);
      expect(problems, phase).toEqual([]);
    };
    /** booking id → how many created events the stream holds for it. */
    const createdEvents = async () => {
      const nc = await connect({ servers: cluster.url.split(',') });
      try {
        const jsm = await jetstreamManager(nc);
        const info = await jsm.streams.info(stream);
        const counts = new Map<string, number>();
        for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq += 1) {
          const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
          if (!message || message.subject !== `${prefix}.${bookingCreatedEvent.subject}`) continue;
          const id = z.object({ data: z.object({ booking_id: z.string() }) }).parse(message.json()).data.booking_id;
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        return counts;
      } finally {
        await nc.close();
      }
    };
    /** Until every replica of the bookings stream is current again: the cluster has healed. */
    const recovered = async (since: number) => {
      await expect.poll(() => cluster.currentReplicas(stream).catch(() => 0), { timeout: 60_000, interval: 250 }).toBe(3);
      return Date.now() - since;
    };
    const report: Record<string, { p99_ms: number; p99_steady_ms: number; recovered_s: number; refused: number }> = {};
    const phase = async (name: string, fault: () => Promise<void>) => {
      startLoad();
      await sleep(3000);
      const faultAt = Date.now();
      await fault();
      const healedAt = Date.now();
      const recoveredMs = await recovered(healedAt);
      await sleep(2000);
      await stopLoad();
      report[name] = {
        p99_ms: p99(outcomes, faultAt, Date.now()),
        p99_steady_ms: p99(outcomes, faultAt - 3000, faultAt),
        recovered_s: +(recoveredMs / 1000).toFixed(1),
        refused: outcomes.filter((outcome) => outcome.at >= faultAt && outcome.status === 503).length,
      };
      await nothingLost(name);
    };

    await phase('stream leader killed', async () => {
      const leader = await cluster.leaderOf(stream);
      await cluster.kill(leader);
      await sleep(5000);
      await cluster.restart(leader);
    });
    await phase(`a follower paused ${PAUSE_MS / 1000} s`, async () => {
      const leader = await cluster.leaderOf(stream);
      const follower = cluster.nodes.find((node) => node.name !== leader)!.name;
      cluster.pause(follower);
      await sleep(PAUSE_MS);
      cluster.resume(follower);
    });
    await phase('a node restarted with its store wiped', async () => {
      const leader = await cluster.leaderOf(stream);
      const follower = cluster.nodes.find((node) => node.name !== leader)!.name;
      await cluster.restart(follower, { wipe: true });
    });

    console.log(`NATS cluster faults (bookings and registrations during each, p99 from the fault on):\n${JSON.stringify(report, null, 2)}`);
    expect(created.length).toBeGreaterThan(30);
    expect(registered).toBeGreaterThan(10);
    // Reconnected by themselves: the same processes as at the start, none restarted.
    expect(stack.children.map(({ child }) => (child.exitCode === null && child.signalCode === null ? child.pid : 'exited'))).toEqual(pids);
  }, 400_000);
});
