import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@app/contracts';
import { bookingBody, eventually, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

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
    const path = `/api/v1/bookings/${id}`;
    const confirmed = await call(suite.bookings, organizationId, 'PATCH', path, { status: 'CONFIRMED' });
    const moved = interval(day, 10 * 60);
    const rescheduled = await call(suite.bookings, organizationId, 'PATCH', path, moved);
    const renamed = await call(suite.bookings, organizationId, 'PATCH', path, { title: 'Renamed' });
    const cancelled = await call(suite.bookings, organizationId, 'DELETE', path);
    const fetched = await call(suite.bookings, organizationId, 'GET', path);

    const events = await eventsOf(id, 5);
    expect(events.map((e) => [e.type, e.data.version])).toEqual([
      ['bookings.booking.created', 1],
      ['bookings.booking.status_changed', 2],
      ['bookings.booking.rescheduled', 3],
      ['bookings.booking.updated', 4],
      ['bookings.booking.cancelled', 5],
    ]);
    expect(events[0]).toMatchObject({ organization_id: organizationId, correlation_id: 'req-create-1', schema_version: 1 });
    // Each carries the booking as the API answered that change (event-carried state); the last one is what GET shows.
    // (The 201's client_secret is the one field no event carries.)
    const { client_secret: _secret, ...createdRecord } = created.body.data;
    const records = [{ body: { data: createdRecord } }, confirmed, rescheduled, renamed, cancelled].map((response) => response.body.data);
    const state = (index: number) => {
      const { record, ...rest } = events[index]?.data ?? {};
      expect(record).toEqual(records[index]);
      return rest;
    };
    expect(records[4]).toEqual(fetched.body.data);
    const base = { booking_id: id, schedule_id: scheduleId, event_type_id: null, seats: 1 };
    expect(state(0)).toEqual({ ...base, status: 'PENDING', ...times, version: 1 });
    // Updates, status changes and reschedules name the record's fields they changed, with their values before.
    expect(state(1)).toEqual({
      ...base,
      status: 'CONFIRMED',
      ...times,
      version: 2,
      previous_status: 'PENDING',
      previous_attributes: { status: 'PENDING' },
    });
    expect(state(2)).toEqual({
      ...base,
      status: 'CONFIRMED',
      ...moved,
      version: 3,
      previous_start_time: times.start_time,
      previous_end_time: times.end_time,
      previous_attributes: times,
    });
    expect(state(3)).toEqual({
      ...base,
      status: 'CONFIRMED',
      ...moved,
      version: 4,
      changed: ['title'],
      previous_attributes: { title: null },
    });
    expect(state(4)).toEqual({ ...base, status: 'CANCELLED', ...moved, version: 5, previous_status: 'CONFIRMED' });
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
