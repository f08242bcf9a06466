import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bookingUpdatedEvent, calendarBookingEventChangedEvent, calendarConnectionRemovedEvent, type EventEnvelope } from '@app/contracts';
import { publishDomainEvent, statementPlans } from '@app/service-testing';
import { bookingBody, eventually, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, type Reply } from './support/harness.js';

type Report = z.input<typeof calendarBookingEventChangedEvent.data>;

/** How long a poll waits for the consumer to apply what was published. */
const POLL = { timeout: 10_000, interval: 50 };

/**
 * `calendar.booking_event.changed` as calendar-sync publishes it (write-back), consumed into the record's
 * `calendar_event`: the newest version per booking and connection, the oldest connection's shown, the booking itself
 * (its version and updated_at) untouched but its ETag changed, and the list reading it in its one statement.
 */
describe("calendar.booking_event.changed consumer and the record's calendar_event", () => {
  const suite = bookingsSuite();

  /** A booking of a fresh organization, as created. */
  async function newBooking(organizationId = newOrganization(), minutes = 600) {
    const scheduleId = newScheduleId();
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(scheduleId, interval(futureDay(6), minutes)),
    );
    expect(created.status).toBe(201);
    return { organizationId, scheduleId, id: String(created.body.data.id) };
  }

  type Booking = Awaited<ReturnType<typeof newBooking>>;

  function report(booking: Booking, connectionId: string, changes: Partial<Report> = {}): Report {
    return {
      booking_id: booking.id,
      schedule_id: booking.scheduleId,
      connection_id: connectionId,
      provider: 'google',
      event_id: null,
      status: 'pending',
      last_error: null,
      version: 1,
      ...changes,
    };
  }

  /** Publishes a report as calendar-sync's relay does; the event speaks for `organizationId` (the booking's by default). */
  function publish(booking: Booking, data: Report, options: { organizationId?: string; id?: string } = {}): Promise<string> {
    return publishDomainEvent(suite.bookings.neighbour, calendarBookingEventChangedEvent, data, {
      organizationId: options.organizationId ?? booking.organizationId,
      ...(options.id ? { id: options.id } : {}),
    });
  }

  const get = (booking: Booking): Promise<Reply> => call(suite.bookings, booking.organizationId, 'GET', `/api/v1/bookings/${booking.id}`);
  const shown = async (booking: Booking) => (await get(booking)).body.data.calendar_event;

  /**
   * Publishes a report for a booking of its own after everything published so far and waits until it shows: the
   * consumer applies a stream in order, so whatever came before it has been applied (or refused) by then.
   */
  async function drained(): Promise<void> {
    const marker = await newBooking();
    await publish(marker, report(marker, randomUUID(), { status: 'synced', event_id: 'marker' }));
    await expect.poll(async () => (await shown(marker)) as unknown, POLL).toMatchObject({ event_id: 'marker' });
  }

  it('when a booking is created, then its calendar_event is null', async () => {
    const booking = await newBooking();
    expect((await get(booking)).body.data.calendar_event).toBeNull();
  });

  it('when calendar-sync reports the event, then GET shows it with a new ETag, and the booking keeps its updated_at', async () => {
    const booking = await newBooking();
    const before = await get(booking);
    const connectionId = randomUUID();

    await publish(booking, report(booking, connectionId));
    await expect
      .poll(() => shown(booking), POLL)
      .toEqual({
        connection_id: connectionId,
        provider: 'google',
        event_id: null,
        status: 'pending',
        last_error: null,
      });
    const pending = await get(booking);
    await publish(booking, report(booking, connectionId, { status: 'synced', event_id: 'evt-1', version: 2 }));
    await expect.poll(() => shown(booking), POLL).toMatchObject({ status: 'synced', event_id: 'evt-1' });

    // The ETag changes whenever the record does (API.md), calendar_event included; updated_at is the booking's own.
    const after = await get(booking);
    expect(new Set([before.headers.etag, pending.headers.etag, after.headers.etag]).size).toBe(3);
    expect(after.body.data.updated_at).toBe(before.body.data.updated_at);
    const revalidated = await call(suite.bookings, booking.organizationId, 'GET', `/api/v1/bookings/${booking.id}`, undefined, {
      'if-none-match': String(pending.headers.etag),
    });
    expect(revalidated.status).toBe(200);

    const stale = await call(
      suite.bookings,
      booking.organizationId,
      'PATCH',
      `/api/v1/bookings/${booking.id}`,
      { title: 'Renamed' },
      { 'if-match': String(before.headers.etag) },
    );
    expect(stale.status).toBe(412);
    const patched = await call(
      suite.bookings,
      booking.organizationId,
      'PATCH',
      `/api/v1/bookings/${booking.id}`,
      { title: 'Renamed' },
      { 'if-match': String(after.headers.etag) },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data.calendar_event).toMatchObject({ connection_id: connectionId, status: 'synced', event_id: 'evt-1' });
    expect(patched.headers.etag).not.toBe(after.headers.etag);
    expect((await get(booking)).headers.etag).toBe(patched.headers.etag);
  });

  it("when the booking changes, then its event's record carries the calendar_event as GET shows it, unchanged by the change", async () => {
    const bus = suite.bookings.infra.bus;
    const received: EventEnvelope<Record<string, unknown>>[] = [];
    const subscription = bus.nc.subscribe(bus.subject(bookingUpdatedEvent.subject), {
      callback: (_error, msg) => void received.push(msg.json<EventEnvelope<Record<string, unknown>>>()),
    });
    await bus.nc.flush();
    try {
      const booking = await newBooking();
      const connectionId = randomUUID();
      await publish(booking, report(booking, connectionId, { status: 'synced', event_id: 'evt-7', version: 2 }));
      await expect.poll(() => shown(booking), POLL).toMatchObject({ event_id: 'evt-7' });

      const renamed = await call(suite.bookings, booking.organizationId, 'PATCH', `/api/v1/bookings/${booking.id}`, { title: 'Renamed' });
      expect(renamed.status).toBe(200);
      const event = await eventually(async () => received.find((candidate) => candidate.data.booking_id === booking.id));
      const fetched = await get(booking);
      expect((event.data.record as Record<string, unknown>).calendar_event).toEqual(fetched.body.data.calendar_event);
      expect(event.data.previous_attributes).toEqual({ title: null });
    } finally {
      subscription.unsubscribe();
    }
  });

  it('when a newer version arrives, then it replaces the shown state; an older one or a replay changes nothing', async () => {
    const booking = await newBooking();
    const connectionId = randomUUID();
    const failed = { status: 'failed' as const, last_error: 'Google answered 503', version: 3 };
    const newest = await publish(booking, report(booking, connectionId, failed));
    await expect.poll(() => shown(booking), POLL).toMatchObject({ status: 'failed', last_error: 'Google answered 503' });

    // Delivered late, out of order: versions 1 and 2 are older than the 3 it holds.
    await publish(booking, report(booking, connectionId, { status: 'synced', event_id: 'evt-old', version: 2 }));
    await publish(booking, report(booking, connectionId, { version: 1 }));
    // The same version again, under a new event id (a replay of calendar-sync's), and the very event once more.
    await publish(booking, report(booking, connectionId, { ...failed, last_error: 'replayed' }));
    await publish(booking, report(booking, connectionId, failed), { id: newest });
    await drained();
    expect(await shown(booking)).toEqual({
      connection_id: connectionId,
      provider: 'google',
      event_id: null,
      status: 'failed',
      last_error: 'Google answered 503',
    });

    // A cancellation's deletion: the newer version with no event id replaces it.
    await publish(booking, report(booking, connectionId, { status: 'synced', event_id: null, last_error: null, version: 4 }));
    await expect.poll(() => shown(booking), POLL).toMatchObject({ status: 'synced', event_id: null, last_error: null });
  });

  it('when two connections write the booking, then the record shows the one whose first report came first', async () => {
    const booking = await newBooking();
    // The later connection's id sorts first, so the order shown is the arrival's, not the ids'.
    const [later, older] = [randomUUID(), randomUUID()].sort();
    if (!later || !older) throw new Error('two ids');
    // Back to back: usually applied in one batch (one transaction), where the arrival order must hold too.
    await publish(booking, report(booking, older, { provider: 'outlook' }));
    await publish(booking, report(booking, later));
    await publish(booking, report(booking, later, { status: 'synced', event_id: 'g-1', version: 2 }));
    await drained();
    expect(await shown(booking)).toMatchObject({ connection_id: older, provider: 'outlook', status: 'pending' });

    await publish(booking, report(booking, older, { provider: 'outlook', status: 'synced', event_id: 'o-1', version: 2 }));
    await expect.poll(() => shown(booking), POLL).toMatchObject({ connection_id: older, event_id: 'o-1', status: 'synced' });
  });

  it('when a writing connection is removed, then the record shows the next one, then null', async () => {
    const booking = await newBooking();
    const [first, second] = [randomUUID(), randomUUID()];
    await publish(booking, report(booking, first, { status: 'synced', event_id: 'evt-1', version: 2 }));
    await publish(booking, report(booking, second, { provider: 'outlook' }));
    await expect.poll(async () => ((await shown(booking)) as { connection_id?: string } | null)?.connection_id, POLL).toBe(first);

    const removal = (connectionId: string, organizationId = booking.organizationId) =>
      publishDomainEvent(
        suite.bookings.neighbour,
        calendarConnectionRemovedEvent,
        { connection_id: connectionId, schedule_id: booking.scheduleId },
        { organizationId },
      );
    // Another organization cannot remove what this one's connection wrote.
    await removal(first, newOrganization());
    await drained();
    expect(await shown(booking)).toMatchObject({ connection_id: first });

    await removal(first);
    await expect.poll(() => shown(booking), POLL).toMatchObject({ connection_id: second, provider: 'outlook', status: 'pending' });
    await removal(second);
    await expect.poll(() => shown(booking), POLL).toBeNull();
  });

  it("when a report names another organization's booking, or a schedule not the booking's, then it is refused", async () => {
    const booking = await newBooking();
    await publish(booking, report(booking, randomUUID()), { organizationId: newOrganization() });
    await publish(booking, report({ ...booking, scheduleId: newScheduleId() }, randomUUID()));
    await drained();
    expect(await shown(booking)).toBeNull();
  });

  it('when a report is malformed, then it is set aside and the reports behind it are applied', async () => {
    const booking = await newBooking();
    await publish(booking, { ...report(booking, randomUUID()), status: 'deleted' } as unknown as Report);
    const connectionId = randomUUID();
    await publish(booking, report(booking, connectionId));
    await expect.poll(() => shown(booking), POLL).toMatchObject({ connection_id: connectionId, status: 'pending' });
  });

  it("when bookings are listed, then each shows its calendar_event, all read in the page's one statement", async () => {
    const organizationId = newOrganization();
    const bookings = [await newBooking(organizationId, 540), await newBooking(organizationId, 600), await newBooking(organizationId, 660)];
    const connections = bookings.map(() => randomUUID());
    const [first, second] = bookings;
    if (!first || !second) throw new Error('three bookings');
    await publish(first, report(first, connections[0] ?? '', { status: 'synced', event_id: 'evt-a', version: 2 }));
    await publish(second, report(second, connections[1] ?? '', { status: 'failed', last_error: 'reauth_required' }));
    const list = () => call<Record<string, unknown>[]>(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    const expected = [
      { connection_id: connections[0], provider: 'google', event_id: 'evt-a', status: 'synced', last_error: null },
      { connection_id: connections[1], provider: 'google', event_id: null, status: 'failed', last_error: 'reauth_required' },
      null,
    ];
    await expect.poll(async () => (await list()).body.data.map((record) => record.calendar_event), POLL).toEqual(expected);

    const sent = await statementPlans(suite.bookings.infra.pool, /./, async () => {
      expect((await list()).body.data.map((record) => record.calendar_event)).toEqual(expected);
    });
    expect(sent.map((statement) => statement.text).filter((text) => text.includes('booking_calendar_events'))).toHaveLength(1);
    expect(sent.filter((statement) => /FROM bookings/.test(statement.text))).toHaveLength(1);
  });

  it('when a series is read, then its bookings show their calendar_event', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const body = {
      ...bookingBody(scheduleId, interval(futureDay(8), 600)),
      timezone: 'UTC',
      recurrence: { frequency: 'daily', count: 2 },
    };
    const created = await call<{ id: string; bookings: { id: string }[] }>(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/booking-series',
      body,
    );
    expect(created.status).toBe(201);
    const [occurrence] = created.body.data.bookings;
    if (!occurrence) throw new Error('two occurrences');
    const connectionId = randomUUID();
    await publish(
      { organizationId, scheduleId, id: occurrence.id },
      report({ organizationId, scheduleId, id: occurrence.id }, connectionId),
    );
    const series = () =>
      call<{ bookings: { calendar_event: unknown }[] }>(
        suite.bookings,
        organizationId,
        'GET',
        `/api/v1/booking-series/${created.body.data.id}`,
      );
    await expect
      .poll(async () => (await series()).body.data.bookings.map((record) => record.calendar_event), POLL)
      .toEqual([expect.objectContaining({ connection_id: connectionId, status: 'pending' }), null]);
  });
});
