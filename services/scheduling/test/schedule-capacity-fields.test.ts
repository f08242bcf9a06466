import { describe, expect, it } from 'vitest';
import { SCHEDULING_STREAM, type ScheduleRecord } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { POLL, createSchedule, startScheduling } from './support/harness.js';

// API.md "Holds, seats, limits and series": seats_per_slot, max_bookings_per_day, booking_horizon_days, public_booking.
const running = startedForTests(startScheduling);

const capacity = { seats_per_slot: 12, max_bookings_per_day: 5, booking_horizon_days: 90, public_booking: true };

describe('schedule capacity fields', () => {
  it('when a schedule is created without them, then it has one seat, no day limit, no horizon and is private', async () => {
    const schedule = await createSchedule(running, organizationHeaders());
    expect(schedule).toMatchObject({ seats_per_slot: 1, max_bookings_per_day: null, booking_horizon_days: null, public_booking: false });
  });

  it('when they are given, then POST, GET, the list and PATCH show them, and PATCH can clear the limits', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers, capacity);
    expect(schedule).toMatchObject(capacity);
    const read = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(read.json<{ data: ScheduleRecord }>().data).toEqual(schedule);
    const list = await running.app.inject({ url: '/api/v1/schedules', headers });
    expect(list.json<{ data: ScheduleRecord[] }>().data).toEqual([schedule]);

    const patched = await running.app.inject({
      method: 'PATCH',
      url: `/api/v1/schedules/${schedule.id}`,
      headers,
      payload: { seats_per_slot: 1000, max_bookings_per_day: null, booking_horizon_days: null, public_booking: false },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<{ data: ScheduleRecord }>().data).toMatchObject({
      seats_per_slot: 1000,
      max_bookings_per_day: null,
      booking_horizon_days: null,
      public_booking: false,
    });
  });

  it('when they change, then the schedule.updated event carries them with their previous values', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload: capacity });
    const bus = running.infra.bus;
    const lastUpdate = async () => {
      const message = await bus.jsm.streams
        .getMessage(bus.streamName(SCHEDULING_STREAM.name), { last_by_subj: bus.subject('scheduling.schedule.updated') })
        .catch(() => null);
      return message?.json<{ data: unknown }>().data ?? null;
    };
    await expect.poll(lastUpdate, POLL).toMatchObject({
      id: schedule.id,
      ...capacity,
      previous_attributes: { seats_per_slot: 1, max_bookings_per_day: null, booking_horizon_days: null, public_booking: false },
    });
  });

  it.each([
    [{ seats_per_slot: 0 }, 'seats_per_slot must be an integer from 1 to 1000'],
    [{ seats_per_slot: 1001 }, 'seats_per_slot must be an integer from 1 to 1000'],
    [{ seats_per_slot: 2.5 }, 'seats_per_slot must be an integer from 1 to 1000'],
    [{ seats_per_slot: '2' }, 'seats_per_slot must be an integer from 1 to 1000'],
    [{ seats_per_slot: null }, 'seats_per_slot must be an integer from 1 to 1000'],
    [{ max_bookings_per_day: 0 }, 'max_bookings_per_day must be an integer of at least 1, or null'],
    [{ max_bookings_per_day: 'many' }, 'max_bookings_per_day must be an integer of at least 1, or null'],
    [{ booking_horizon_days: 0 }, 'booking_horizon_days must be an integer from 1 to 730'],
    [{ booking_horizon_days: 731 }, 'booking_horizon_days must be an integer from 1 to 730'],
    [{ public_booking: 'yes' }, 'public_booking must be true or false'],
  ])('when %j is sent, then POST and PATCH are a 400 naming the field', async (body, message) => {
    const headers = organizationHeaders();
    const created = await running.app.inject({ method: 'POST', url: '/api/v1/schedules', headers, payload: { name: 'C', ...body } });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(created.json<{ error: string }>().error).toContain(message);

    const schedule = await createSchedule(running, headers);
    const patched = await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload: body });
    expect(patched.statusCode).toBe(400);
    expect(patched.json<{ error: string }>().error).toContain(message);
  });
});
