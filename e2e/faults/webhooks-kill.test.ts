import { describe, expect, it } from 'vitest';
import { bookingRecordSchema, createdWebhookEndpointSchema, dataEnvelope, listEnvelope, webhookDeliverySchema } from '@app/contracts';
import { startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { HoldingReceiver } from '../support/holding-receiver.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';

/** A claim's lease is WEBHOOKS_TIMEOUT_MS × 2 + 10 s (delivery-loop.ts): the killed attempts are sent again after it. */
const TIMEOUT_MS = 3000;
/** The webhooks service's attempts in flight to one endpoint (its TUNING.endpointConcurrency). */
const ENDPOINT_CONCURRENCY = 4;
/** Slow enough that most deliveries are still to come once the bookings are made, well within the timeout. */
const SLOW_ANSWER_MS = 800;
const BEFORE_KILL = 40;
const WHILE_DOWN = 10;
const POLL = { timeout: 10_000, interval: 50 };
const AFTER_RESTART = { timeout: 2 * TIMEOUT_MS + 10_000 + 30_000, interval: 200 };

describe('the webhooks service killed (SIGKILL) mid-delivery', () => {
  const receiver = startedForTests(() => HoldingReceiver.start(SLOW_ANSWER_MS), { stop: (started) => started.close() });
  const stack = startedForTests(
    () =>
      startE2eStack({
        CALENDAR_SYNC_POLL_MS: '3600000',
        WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      }),
    { timeout: 120_000 },
  );

  it('when it restarts, then every booking.created arrives signed, and only the attempts in flight at the kill arrive twice', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const endpoint = await stack.call('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: receiver.url, events: ['booking.created'] },
    });
    const { id: endpointId, secret } = dataEnvelope(createdWebhookEndpointSchema).parse(endpoint.body).data;
    receiver.trust(secret);
    const deliveries = async (status: string) => {
      const listed = await stack.call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries?status=${status}&limit=1`, { key });
      return listEnvelope(webhookDeliverySchema).parse(listed.body).meta.total;
    };
    let slot = 0;
    // Six clients at a time: enough to overlap the deliveries, few enough that no availability check times out.
    const book = async (count: number) => {
      const slots = Array.from({ length: count }, () => quarterHour(slot++));
      const ids: string[] = [];
      const client = async () => {
        for (let interval = slots.shift(); interval; interval = slots.shift()) {
          const created = await stack.call('POST', '/api/v1/bookings', {
            key,
            body: { schedule_id: scheduleId, ...interval, attendee: { name: 'Kim', email: 'kim@example.com' } },
          });
          expect(created.status).toBe(201);
          ids.push(dataEnvelope(bookingRecordSchema).parse(created.body).data.id);
        }
      };
      await Promise.all(Array.from({ length: 6 }, client));
      return ids;
    };

    const bookings = await book(BEFORE_KILL);
    await expect.poll(() => receiver.answered.size, POLL).toBeGreaterThanOrEqual(ENDPOINT_CONCURRENCY);
    // Frozen, the receiver holds the attempts in flight; every one answered before is recorded, every event fanned out.
    receiver.hold();
    await expect.poll(() => receiver.openIds().length, POLL).toBe(ENDPOINT_CONCURRENCY);
    await expect.poll(() => deliveries('succeeded'), POLL).toBe(receiver.answered.size);
    await expect.poll(() => deliveries('pending'), POLL).toBe(BEFORE_KILL - receiver.answered.size);
    const inFlight = receiver.openIds();
    const answeredBeforeKill = receiver.answered.size;
    expect(receiver.abandoned).toEqual([]); // no attempt timed out: those held are the ones in flight

    const webhooks = await stack.kill('webhooks');
    bookings.push(...(await book(WHILE_DOWN)));
    receiver.resume(50);
    await stack.restart(webhooks);

    await expect.poll(() => bookings.filter((id) => !receiver.verified.has(id)), AFTER_RESTART).toEqual([]);
    await expect.poll(() => deliveries('succeeded'), AFTER_RESTART).toBe(bookings.length);
    // The kill came mid-delivery: attempts were open, some deliveries done, more still to make.
    expect(inFlight).toHaveLength(ENDPOINT_CONCURRENCY);
    expect(answeredBeforeKill).toBeGreaterThan(0);
    expect(BEFORE_KILL - answeredBeforeKill - inFlight.length).toBeGreaterThan(0);
    expect(receiver.problems).toEqual([]);
    const arrivals = new Map<string, number>();
    for (const id of receiver.arrivals) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    expect(arrivals.size).toBe(bookings.length);
    // The service cannot know how an attempt it was killed in ended: those, and only those, are sent again, once.
    const twice = [...arrivals].filter(([, count]) => count > 1);
    expect(Object.fromEntries(twice)).toEqual(Object.fromEntries(inFlight.map((id) => [id, 2])));
  });
});
