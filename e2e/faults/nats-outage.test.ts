import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookingCreatedEvent, BOOKINGS_STREAM, dataEnvelope, errorBodySchema } from '@app/contracts';
import { OwnNatsServer, startedForTests } from '@app/service-testing';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { inject } from 'vitest';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';

/** Every `bookings.booking.created` event in the stream: booking id → how many times it was published. */
async function createdEvents(natsUrl: string, prefix: string): Promise<Map<string, number>> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const stream = `${prefix}_${BOOKINGS_STREAM.name}`;
    const info = await jsm.streams.info(stream);
    const counts = new Map<string, number>();
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq += 1) {
      const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (!msg || msg.subject !== `${prefix}.${bookingCreatedEvent.subject}`) continue;
      const id = z.object({ data: z.object({ booking_id: z.string() }) }).parse(msg.json()).data.booking_id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  } finally {
    await nc.close();
  }
}

describe('NATS stopped for 10 s while bookings are created', () => {
  const prefix = `${inject('natsPrefix')}_outage`;
  // Its stop() is the outage the test makes; destroy() is the end.
  const nats = startedForTests(() => OwnNatsServer.start(), { stop: (started) => started.destroy() });
  const stack = startedForTests(() => startE2eStack({ NATS_URL: nats.url, NATS_PREFIX: prefix }), { timeout: 120_000 });

  it('when NATS returns, then every booking that got a 201 has exactly one created event, and failed creates none', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const created: string[] = [];
    const refused: number[] = [];
    let n = 0;
    const book = async () => {
      const slot = quarterHour(n++);
      const response = await stack.call('POST', '/api/v1/bookings', {
        key,
        body: { schedule_id: scheduleId, ...slot, attendee: { name: 'Ann', email: 'ann@example.com' } },
      });
      if (response.status === 201) created.push(dataEnvelope(z.object({ id: z.string() })).parse(response.body).data.id);
      else {
        // While NATS is away the availability check cannot be asked: 503 with Retry-After, never a hang or a 500.
        expect(response.status).toBe(503);
        expect(errorBodySchema.parse(response.body).code).toBe('UPSTREAM_UNAVAILABLE');
        expect(response.headers.get('retry-after')).toBe('1');
        refused.push(response.status);
      }
    };
    const load = async (until: number) => {
      while (Date.now() < until) await Promise.all([book(), book(), book()]);
    };

    const started = Date.now();
    const traffic = load(started + 16_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await nats.stop();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await nats.resume();
    await traffic;

    expect(created.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const deadline = Date.now() + 30_000;
    let events = await createdEvents(nats.url, prefix);
    while (created.some((id) => !events.has(id)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      events = await createdEvents(nats.url, prefix);
    }
    for (const id of created) expect(events.get(id), `created event of ${id}`).toBe(1);
    expect([...events.keys()].filter((id) => !created.includes(id))).toEqual([]);
  });
});
