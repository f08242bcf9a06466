import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@app/contracts';
import { bookingBody, eventually, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

type HoldEvent = EventEnvelope<Record<string, unknown>>;

/** Holds' events, for the slot projection only (no webhook type: the webhooks consumers skip them). */
describe('hold domain events', () => {
  const suite = bookingsSuite();
  let unsubscribe: () => void;
  const received: HoldEvent[] = [];
  const day = futureDay(26);

  beforeAll(async () => {
    const bus = suite.bookings.infra.bus;
    const subscription = bus.nc.subscribe(bus.subject('bookings.hold.>'), {
      callback: (_error, msg) => void received.push(msg.json<HoldEvent>()),
    });
    unsubscribe = () => subscription.unsubscribe();
    await bus.nc.flush();
  });
  afterAll(() => unsubscribe());

  const eventsOf = (holdId: string, count: number) =>
    eventually(async () => {
      const mine = received.filter((event) => event.data.hold_id === holdId);
      return mine.length >= count ? mine : undefined;
    });

  it('when a hold is placed and released, then bookings.hold.created and bookings.hold.ended carry its state', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 9 * 60);
    const held = await call(suite.bookings, organizationId, 'POST', '/api/v1/holds', { schedule_id: scheduleId, ...times });
    const id = String(held.body.data.id);
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/holds/${id}`);
    const events = await eventsOf(id, 2);
    expect(events.map((e) => e.type)).toEqual(['bookings.hold.created', 'bookings.hold.ended']);
    const base = { hold_id: id, schedule_id: scheduleId, ...times, seats: 1, expires_at: held.body.data.expires_at, booking_id: null };
    expect(events[0]?.data).toEqual({ ...base, status: 'active' });
    expect(events[1]?.data).toEqual({ ...base, status: 'released' });
  });

  it('when a booking uses a hold, then bookings.hold.ended says used with the booking', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 10 * 60);
    const held = await call(suite.bookings, organizationId, 'POST', '/api/v1/holds', { schedule_id: scheduleId, ...times });
    const id = String(held.body.data.id);
    const booked = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, times, { hold_id: id }));
    const events = await eventsOf(id, 2);
    expect(events[1]).toMatchObject({ type: 'bookings.hold.ended', data: { status: 'used', booking_id: booked.body.data.id } });
  });
});
