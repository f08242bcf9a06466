import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { neighbourBus } from '@app/service-testing';
import { bookingCreatedEvent } from '@app/contracts';
import { Receiver } from './support/receiver.js';
import { bookingState, client, data, list, publishEvent, startWebhooks, type Running } from './support/harness.js';

/** A receiver that holds the first request open (a slow receiver mid-delivery) and answers the others at once. */
class HoldingReceiver {
  readonly received: IncomingHttpHeaders[] = [];
  private held: ServerResponse | undefined;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<HoldingReceiver> {
    const server = createServer();
    const receiver = new HoldingReceiver(server);
    server.on('request', (request, response) => {
      request.resume();
      request.on('end', () => {
        receiver.received.push(request.headers);
        if (receiver.received.length === 1) receiver.held = response;
        else response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    this.held?.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The lease of a claimed delivery: WEBHOOKS_TIMEOUT_MS × 2 + 10 s (delivery-loop.ts). */
const TIMEOUT_MS = 1000;
const TAKEOVER = { timeout: 2 * TIMEOUT_MS + 10_000 + 10_000, interval: 200 };

describe('a replica stopped mid-delivery', () => {
  let first: Running;
  let receiver: HoldingReceiver;
  beforeAll(async () => {
    receiver = await HoldingReceiver.start();
    first = await startWebhooks({ WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  afterAll(() => receiver.close());

  it('when it stops while a receiver holds an attempt, then the next replica sends it again (same webhook-id) and events published meanwhile arrive too', async () => {
    const api = client(first);
    const id = String(data(await api.post('/api/v1/webhook-endpoints', { url: receiver.url })).id);
    const inFlight = await publishEvent(first, bookingCreatedEvent, bookingState(), api.organizationId);
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(1);

    // Stopped with the attempt unanswered (its claim stays until the lease runs out); an event arrives while no replica runs.
    const prefix = first.infra.config.NATS_PREFIX;
    await first.stop();
    const neighbour = await neighbourBus({ NATS_URL: inject('natsUrl'), NATS_PREFIX: prefix, LOG_LEVEL: 'silent' });
    const meanwhile = await publishEvent({ neighbour }, bookingCreatedEvent, bookingState(), api.organizationId).finally(() =>
      neighbour.close(),
    );
    const second = await startWebhooks({ WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS) }, { natsPrefix: prefix });
    try {
      const again = client(second, api.organizationId);
      await expect
        .poll(async () => list(await again.get(`/api/v1/webhook-endpoints/${id}/deliveries?status=succeeded`)).length, TAKEOVER)
        .toBe(2);
      const ids = receiver.received.map((headers) => headers['webhook-id']);
      expect(ids.filter((webhookId) => webhookId === inFlight)).toHaveLength(2);
      expect(ids).toContain(meanwhile);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe('two replicas', () => {
  it('when they share the work, then every event arrives exactly once per endpoint (no attempt is sent twice)', async () => {
    const sink = await Receiver.start();
    const tuning = { endpointConcurrency: 8 };
    const one = await startWebhooks({}, { tuning });
    const two = await startWebhooks({}, { natsPrefix: one.infra.config.NATS_PREFIX, tuning });
    try {
      const api = client(one);
      const id = String(data(await api.post('/api/v1/webhook-endpoints', { url: sink.url })).id);
      const ids = await Promise.all(
        Array.from({ length: 40 }, () => publishEvent(one, bookingCreatedEvent, bookingState(), api.organizationId)),
      );
      await expect
        .poll(async () => list(await api.get(`/api/v1/webhook-endpoints/${id}/deliveries?status=succeeded&limit=200`)).length, {
          timeout: 15_000,
          interval: 100,
        })
        .toBe(40);
      expect(sink.received.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual([...ids].sort());
    } finally {
      await two.stop();
      await one.stop();
      await sink.close();
    }
  }, 40_000);
});
