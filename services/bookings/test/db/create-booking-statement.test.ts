import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bookingCreatedEvent, createBookingBodySchema } from '@app/contracts';
import { IdempotencyStore, issueClientSecret, outboxRow } from '@app/service-kit';
import type { RunningService } from '@app/service-testing';
import type { Config } from '../../src/config.js';
import { insertBookingStatement } from '../../src/db/booking-create.repository.js';
import { bookingState, newBooking } from '../../src/domain/booking.js';
import { startBookings } from '../support/harness.js';

/** The create statement with the kit's reservation of an Idempotency-Key: one booking per key, even across a crash. */
describe('insertBookingStatement with an Idempotency-Key reservation', () => {
  let running: RunningService<Config>;
  let store: IdempotencyStore;
  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_statement` });
    store = new IdempotencyStore(running.infra.pool);
  });
  afterAll(() => running.stop());

  function arrange() {
    const organizationId = randomUUID();
    const body = createBookingBodySchema.parse({
      schedule_id: randomUUID(),
      start_time: '2031-02-03T10:00:00Z',
      end_time: '2031-02-03T10:30:00Z',
      attendee: { name: 'Ada', email: 'ada@example.com' },
    });
    const booking = newBooking(
      body,
      { id: randomUUID(), organizationId, scheduleTimezone: 'UTC', seatsPerSlot: 1, clientSecretHash: issueClientSecret().hash },
      new Date(),
    );
    const event = outboxRow(bookingCreatedEvent, bookingState(booking), { organizationId });
    const keyed = { scope: organizationId, key: `key-${randomUUID()}`, target: 'POST /api/v1/bookings', requestHash: 'h' };
    return { booking, event, keyed };
  }
  const rows = async (table: 'bookings' | 'outbox', id: string) =>
    (await running.infra.pool.query(`SELECT 1 FROM ${table} WHERE id = $1::uuid`, [id])).rowCount;

  it('when the request holds the key, then the booking, its event and the key’s first response are written together', async () => {
    const { booking, event, keyed } = arrange();
    const reservation = await store.reserve(keyed);
    if (!reservation) throw new Error('key not reserved');
    const body = { data: { id: booking.id } };
    expect(await insertBookingStatement(running.infra.pool, booking, event, { reservation, statusCode: 201, body })).toBe(true);
    expect(await rows('bookings', booking.id)).toBe(1);
    expect(await rows('outbox', event.id)).toBe(1);
    expect((await store.find(keyed))?.response).toEqual({ statusCode: 201, body: JSON.stringify(body) });
  });

  it('when the reservation lapsed and another request took the key, then nothing is written', async () => {
    const { booking, event, keyed } = arrange();
    const lapsed = await store.reserve(keyed);
    if (!lapsed) throw new Error('key not reserved');
    await running.infra.pool.query(`UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE scope = $1`, [
      keyed.scope,
    ]);
    expect(await store.reserve(keyed)).not.toBeNull();
    const first = { reservation: lapsed, statusCode: 201, body: { data: { id: booking.id } } };
    expect(await insertBookingStatement(running.infra.pool, booking, event, first)).toBe(false);
    expect(await rows('bookings', booking.id)).toBe(0);
    expect(await rows('outbox', event.id)).toBe(0);
    expect((await store.find(keyed))?.response).toBeNull();
  });
});
