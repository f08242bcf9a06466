import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@app/contracts';
import { bookingBody, eventually, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/suite.js';

type BookingEvent = EventEnvelope<Record<string, unknown>>;

/**
 * What bookings publishes. That scheduling's slots follow these events is scheduling's consumer suite
 * (bookings-projection.test.ts) and, across the real processes, e2e's full day.
 */
describe('booking domain events', () => {
  const suite = bookingsSuite();
  let unsubscribe: () => void;
  const received: BookingEvent[] = [];
  const day = futureDay(25);

  beforeAll(async () => {
    // JetStream publishes reach plain subscribers too: this sees every event the relay publishes.
    const bus = suite.bookings.infra.bus;
    const subscription = bus.nc.subscribe(bus.subject('bookings.booking.>'), {
      callback: (_error, msg) => void received.push(msg.json<BookingEvent>()),
    });
    unsubscribe = () => subscription.unsubscribe();
    await bus.nc.flush();
  });
  afterAll(() => unsubscribe());

  const eventsOf = (bookingId: string, count: number) =>
    eventually(async () => {
      const mine = received.filter((event) => event.data.booking_id === bookingId);
      // Relays of several replicas may publish neighbouring events out of order; the version orders them.
      return mine.length >= count ? mine.sort((a, b) => Number(a.data.version) - Number(b.data.version)) : undefined;
    });

  it('when a booking is created, changed, moved and cancelled, then each change is published once with a growing version', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 9 * 60);
    const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, times), {
      'x-request-id': 'req-create-1',
    });
    const id = String(created.body.data.id);
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: 'CONFIRMED' });
    const moved = interval(day, 10 * 60);
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, moved);
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { title: 'Renamed' });
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/bookings/${id}`);

    const events = await eventsOf(id, 5);
    const base = { booking_id: id, schedule_id: scheduleId, event_type_id: null };
    expect(events.map((e) => [e.type, e.data.version])).toEqual([
      ['bookings.booking.created', 1],
      ['bookings.booking.status_changed', 2],
      ['bookings.booking.rescheduled', 3],
      ['bookings.booking.updated', 4],
      ['bookings.booking.cancelled', 5],
    ]);
    expect(events[0]).toMatchObject({ organization_id: organizationId, correlation_id: 'req-create-1', schema_version: 1 });
    expect(events[0]?.data).toEqual({ ...base, status: 'PENDING', ...times, version: 1 });
    expect(events[1]?.data).toEqual({ ...base, status: 'CONFIRMED', ...times, version: 2, previous_status: 'PENDING' });
    expect(events[2]?.data).toEqual({
      ...base,
      status: 'CONFIRMED',
      ...moved,
      version: 3,
      previous_start_time: times.start_time,
      previous_end_time: times.end_time,
    });
    expect(events[3]?.data).toEqual({ ...base, status: 'CONFIRMED', ...moved, version: 4, changed: ['title'] });
    expect(events[4]?.data).toEqual({ ...base, status: 'CANCELLED', ...moved, version: 5, previous_status: 'CONFIRMED' });
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
  });

  it('when a request is refused, then nothing is published', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, interval(day, 12 * 60)));
    const id = String(created.body.data.id);
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: 'COMPLETED' });
    await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, interval(day, 12 * 60)));
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: 'CONFIRMED' });
    const events = await eventsOf(id, 2);
    // The confirmation is published after the refused move and the refused overlap: had either published, it would sit between.
    expect(events.map((e) => e.type)).toEqual(['bookings.booking.created', 'bookings.booking.status_changed']);
    expect(received.filter((e) => e.organization_id === organizationId)).toHaveLength(2);
  });
});
