import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingRecordSchema, dataEnvelope } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const POLL = { timeout: 15_000, interval: 20 };
/** The review's bodies: metadata sized just under the 1 MiB body limit. */
const OVERSIZED_METADATA = { blob: 'x'.repeat(1_048_000) };
const BURST = 5000;
/** The noisy organization's clients at once: its burst saturates this machine without timing out availability checks. */
const CLIENTS = 8;

/**
 * One organization cannot slow another's events (API.md, Conventions): neither with events too large for the broker
 * nor with a burst of thousands of bookings. Each organization's endpoint records when each booking.created arrived.
 */
describe('a noisy organization beside a quiet one', () => {
  let stack: E2eStack;
  let receiver: WebhookReceiver;
  const arrived = (id: string) => receiver.arrivalOf(id) !== undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000' });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  async function subscribed(): Promise<{ key: string; scheduleId: string }> {
    const organization = await organizationWithSchedule(stack);
    const endpoint = await stack.call('POST', '/api/v1/webhook-endpoints', {
      key: organization.key,
      body: { url: receiver.url, events: ['booking.created'] },
    });
    expect(endpoint.status).toBe(201);
    return organization;
  }

  const book = (organization: { key: string; scheduleId: string }, slot: number, extra: Record<string, unknown> = {}) =>
    stack.call('POST', '/api/v1/bookings', {
      key: organization.key,
      body: { schedule_id: organization.scheduleId, ...quarterHour(slot), attendee: { name: 'Kim', email: 'kim@example.com' }, ...extra },
    });

  it("when an organization sends the review's 100 oversized bookings, then each is refused, and the next organization's booking reaches its webhook", async () => {
    const noisy = await subscribed();
    const quiet = await subscribed();
    for (let slot = 0; slot < 100; slot += 1) {
      const refused = await book(noisy, slot, { metadata: OVERSIZED_METADATA });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('metadata') as string });
    }
    const listed = await stack.call('GET', '/api/v1/bookings?limit=1', { key: noisy.key });
    expect((listed.body as { meta: { total: number } }).meta.total).toBe(0);

    const created = await book(quiet, 0);
    expect(created.status).toBe(201);
    const { id } = dataEnvelope(bookingRecordSchema).parse(created.body).data;
    await expect.poll(() => arrived(id), POLL).toBe(true);
  });

  it(`when an organization writes ${BURST} bookings, then another's booking made meanwhile reaches its webhook in under a second`, async () => {
    const noisy = await subscribed();
    const quiet = await subscribed();
    let next = 0;
    const noisyIds: string[] = [];
    const client = async () => {
      for (let slot = next++; slot < BURST; slot = next++) {
        const created = await book(noisy, slot, {}); // quarterHour(slot) is unique per slot
        expect(created.status).toBe(201);
        noisyIds.push(dataEnvelope(bookingRecordSchema).parse(created.body).data.id);
      }
    };
    const burst = Promise.all(Array.from({ length: CLIENTS }, client));
    // Well into the burst: thousands of the noisy organization's events and deliveries are ahead of this one.
    await expect.poll(() => noisyIds.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(BURST / 2);
    const created = await book(quiet, 0);
    const answered = performance.now();
    expect(created.status).toBe(201);
    const { id } = dataEnvelope(bookingRecordSchema).parse(created.body).data;
    await expect.poll(() => arrived(id), POLL).toBe(true);
    const latency = (receiver.arrivalOf(id) ?? Infinity) - answered;
    await burst;
    console.log(`the quiet organization's booking.created arrived ${latency.toFixed(0)} ms after its 201, amid ${BURST} noisy bookings`);
    expect(latency).toBeLessThan(1000);
    // Nothing of the noisy organization was lost on the way.
    await expect.poll(() => noisyIds.filter(arrived).length, { timeout: 60_000, interval: 200 }).toBe(BURST);
  }, 180_000);
});
