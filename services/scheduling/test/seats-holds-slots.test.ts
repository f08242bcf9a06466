import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingCreatedEvent, holdCreatedEvent, holdEndedEvent } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import {
  DAY,
  NOW,
  POLL,
  allMorning,
  createSchedule,
  getSlots,
  morning,
  publishEvent,
  startScheduling,
  without,
} from './support/harness.js';

// Its clock stands at `now` (NOW unless a test moves it): holds expire against it with no event.
let now = NOW;
const running = startedForTests(() => startScheduling(() => now));

const at = (time: string, date = DAY) => `${date}T${time}:00.000Z`;

function booking(scheduleId: string, start: string, end: string, seats = 1) {
  return {
    booking_id: randomUUID(),
    schedule_id: scheduleId,
    event_type_id: null,
    status: 'PENDING' as const,
    start_time: start,
    end_time: end,
    version: 1,
    seats,
  };
}

function hold(scheduleId: string, start: string, end: string, expiresAt: Date, seats = 1) {
  return {
    hold_id: randomUUID(),
    schedule_id: scheduleId,
    start_time: start,
    end_time: end,
    seats,
    status: 'active' as const,
    expires_at: expiresAt.toISOString(),
    booking_id: null,
  };
}

/** `[start, seats_remaining]` of each slot of a range. */
async function seatsOf(scheduleId: string, startDate: string, endDate = startDate): Promise<[string, number][]> {
  const { status, body } = await getSlots(running, { scheduleId, startDate, endDate });
  if (status !== 200) throw new Error(`slots failed: ${JSON.stringify(body)}`);
  return body.days.flatMap((day) => day.slots.map((slot): [string, number] => [slot.start, slot.seats_remaining]));
}

const startsOf = async (scheduleId: string, date: string) => (await seatsOf(scheduleId, date)).map(([start]) => start);

describe('seats_remaining', () => {
  it('when bookings of several seats overlap, then a slot counts the most seats taken at any instant of it', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), {
      ...morning,
      slot_duration: 60,
      slot_interval: 30,
      seats_per_slot: 5,
    });
    // 09:00–09:30 takes 2, 09:30–10:00 takes 3, 09:15–09:45 takes 1: at most 4 at once (2+1, then 3+1), though 6
    // overlap the 09:00 slot in all. 10:30–11:00 takes all 5.
    for (const taken of [
      booking(schedule.id, at('09:00'), at('09:30'), 2),
      booking(schedule.id, at('09:30'), at('10:00'), 3),
      booking(schedule.id, at('09:15'), at('09:45'), 1),
      booking(schedule.id, at('10:30'), at('11:00'), 5),
    ])
      await publishEvent(running, bookingCreatedEvent, taken);

    await expect
      .poll(() => seatsOf(schedule.id, DAY), POLL)
      .toEqual([
        [at('09:00'), 1],
        [at('09:30'), 1],
        [at('11:00'), 5],
      ]);
  });

  it('when a schedule has one seat, then every slot shows 1 and a booking takes its slot', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, at('10:00'), at('10:30')));
    await expect.poll(() => seatsOf(schedule.id, DAY), POLL).toEqual(without('10:00').map((start) => [start, 1]));
  });
});

describe('holds in the slots', () => {
  it('when a hold is active, then it takes its slot; when it expires, then the slot is back with no event', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    await publishEvent(running, holdCreatedEvent, hold(schedule.id, at('10:00'), at('10:30'), new Date(NOW.getTime() + 600_000)));
    await expect.poll(() => startsOf(schedule.id, DAY), POLL).toEqual(without('10:00'));

    now = new Date(NOW.getTime() + 599_999);
    expect(await startsOf(schedule.id, DAY)).toEqual(without('10:00'));
    now = new Date(NOW.getTime() + 600_000); // expires_at: no longer active
    expect(await startsOf(schedule.id, DAY)).toEqual(allMorning);
  });

  it('when a hold ends (released or used), then its seats are free, and a late duplicate of its creation changes nothing', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), { ...morning, seats_per_slot: 3 });
    const placed = hold(schedule.id, at('11:00'), at('11:30'), new Date(NOW.getTime() + 3_600_000), 2);
    await publishEvent(running, holdCreatedEvent, placed);
    await expect.poll(() => seatsOf(schedule.id, DAY), POLL).toContainEqual([at('11:00'), 1]);

    await publishEvent(running, holdEndedEvent, { ...placed, status: 'released' });
    await publishEvent(running, holdCreatedEvent, placed); // a re-publish with a new event id, after the release
    const marker = booking(schedule.id, at('09:00'), at('09:30'), 3);
    await publishEvent(running, bookingCreatedEvent, marker); // applied after both (one consumer, in order)
    await expect.poll(() => seatsOf(schedule.id, DAY), POLL).toEqual(without('09:00').map((start) => [start, 3]));
  });
});

describe('max_bookings_per_day', () => {
  // New York springs forward on Sunday 2026-03-08: that local day is 05:00Z → 04:00Z (23 hours).
  const SUNDAY = '2026-03-08';
  const MONDAY = '2026-03-09';
  const allDay = ['sunday', 'monday'].map((day) => ({ day, start: '00:00', end: '24:00' }));

  it('when a local day of a DST change has reached the limit with bookings and holds, then it offers no slot', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), {
      timezone: 'America/New_York',
      availability: allDay,
      slot_duration: 60,
      max_bookings_per_day: 2,
    });
    const slotsPerDay = async () => {
      const { body } = await getSlots(running, { scheduleId: schedule.id, startDate: SUNDAY, endDate: MONDAY });
      return body.days.map((day) => [day.date, day.slots.length]);
    };
    // Sunday 10:00 EDT; and 00:30 EDT on Monday, which a fixed 24-hour day from Sunday's midnight would count as Sunday.
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, '2026-03-08T14:00:00.000Z', '2026-03-08T15:00:00.000Z'));
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, '2026-03-09T04:30:00.000Z', '2026-03-09T04:45:00.000Z'));
    // 23 hourly slots on Sunday less the booked one; 24 on Monday less the 00:00 one the 00:30 booking overlaps.
    await expect.poll(slotsPerDay, POLL).toEqual([
      [SUNDAY, 22],
      [MONDAY, 23],
    ]);

    // A hold starting late on Sunday (23:30 EDT) is Sunday's second: Sunday is full, Monday is not.
    await publishEvent(
      running,
      holdCreatedEvent,
      hold(schedule.id, '2026-03-09T03:30:00.000Z', '2026-03-09T03:45:00.000Z', new Date('2026-03-03T00:00:00Z')),
    );
    await expect.poll(slotsPerDay, POLL).toEqual([
      [SUNDAY, 0],
      [MONDAY, 23],
    ]);
    // Once the hold has expired, Sunday counts one again (and the hold's 03:00Z slot is free again too).
    now = new Date('2026-03-03T00:00:00Z');
    expect(await slotsPerDay()).toEqual([
      [SUNDAY, 22],
      [MONDAY, 23],
    ]);
  });
});

describe('booking_horizon_days', () => {
  const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday'].map((day) => ({ day, start: '09:00', end: '12:00' }));

  it('when a slot starts later than now + the horizon, then it is not offered', async () => {
    now = NOW; // Monday 08:00 UTC: nothing starts after Wednesday 08:00
    const schedule = await createSchedule(running, organizationHeaders(), {
      availability: weekdays,
      slot_duration: 60,
      booking_horizon_days: 2,
    });
    const hours = ['09:00', '10:00', '11:00'];
    expect(await startsOf(schedule.id, '2026-03-03')).toEqual(hours.map((hour) => at(hour, '2026-03-03')));
    expect(await startsOf(schedule.id, '2026-03-04')).toEqual([]);

    now = new Date('2026-03-02T10:00:00.000Z'); // up to Wednesday 10:00 included
    expect(await startsOf(schedule.id, '2026-03-04')).toEqual([at('09:00', '2026-03-04'), at('10:00', '2026-03-04')]);
    expect(await startsOf(schedule.id, '2026-03-05')).toEqual([]);
  });
});
