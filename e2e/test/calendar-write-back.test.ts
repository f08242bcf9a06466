import { describe, expect, it } from 'vitest';
import { bookingRecordSchema, calendarConnectionSchema, dataEnvelope } from '@app/contracts';
import { eventually, FakeProviders, startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';

/**
 * Write-back across the real processes, through the gateway only: bookings publishes the booking's states on its
 * stream, calendar-sync's own consumer and writer keep one event per booking in the connected Google calendar (fake).
 */
describe('calendar write-back, through the gateway', () => {
  const providers = startedForTests(async () => {
    const providers = new FakeProviders();
    await providers.start();
    return providers;
  });
  const stack = startedForTests(() => startE2eStack({ ...providers.env(), CALENDAR_SYNC_POLL_MS: '200' }), { timeout: 120_000 });

  it('when a booking is made, rescheduled and cancelled, then its one Google event is created, moved and deleted', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const call = (method: string, path: string, body?: unknown) => stack.call(method, path, { key, body });
    const account = providers.account();
    account.google.set('primary', []);
    const connected = await call('POST', '/api/v1/calendar-connections', {
      provider: 'google',
      schedule_id: scheduleId,
      credentials: account.credentials(),
      write_calendar_id: 'primary',
    });
    expect(connected.status).toBe(201);
    expect(dataEnvelope(calendarConnectionSchema).parse(connected.body).data.write_calendar_id).toBe('primary');

    const slot = quarterHour(44);
    const booked = await call('POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      ...slot,
      title: 'Planning',
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(booked.status).toBe(201);
    const booking = dataEnvelope(bookingRecordSchema).parse(booked.body).data;
    const live = () => (account.googleEvents.get('primary') ?? []).filter((event) => event.status === 'confirmed');
    const [event] = await eventually(async () => (live().length > 0 ? live() : undefined), 20_000);
    expect(event).toMatchObject({
      summary: 'Planning',
      start: slot.start_time,
      end: slot.end_time,
      attendees: ['ada@example.com'],
      privateProperties: { booking_id: booking.id, schedule_id: scheduleId },
    });

    // The booking shows its provider event (bookings keeps calendar-sync's calendar.booking_event.changed).
    const shown = await eventually(async () => {
      const read = dataEnvelope(bookingRecordSchema).parse((await call('GET', `/api/v1/bookings/${booking.id}`)).body).data;
      return read.calendar_event?.status === 'synced' ? read.calendar_event : undefined;
    }, 20_000);
    expect(shown).toEqual({
      connection_id: expect.any(String),
      provider: 'google',
      event_id: event?.id,
      status: 'synced',
      last_error: null,
    });

    const moved = quarterHour(48);
    expect((await call('PATCH', `/api/v1/bookings/${booking.id}`, moved)).status).toBe(200);
    await eventually(async () => (live()[0]?.start === moved.start_time ? true : undefined), 20_000);
    expect(live()).toEqual([expect.objectContaining({ id: event?.id, end: moved.end_time })]);

    expect((await call('DELETE', `/api/v1/bookings/${booking.id}`)).status).toBe(200);
    await eventually(async () => (live().length === 0 ? true : undefined), 20_000);
    await eventually(async () => {
      const read = dataEnvelope(bookingRecordSchema).parse((await call('GET', `/api/v1/bookings/${booking.id}`)).body).data;
      return read.calendar_event?.event_id === null ? true : undefined;
    }, 20_000);
    expect(account.googleEvents.get('primary')).toHaveLength(1); // the one event, now deleted (Google keeps it cancelled)
  });
});
