import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { availabilityCheckRequest } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { createSchedule, startScheduling } from './support/harness.js';

// Its clock stands at NOW: Monday 2026-03-02 08:00 UTC.
const running = startedForTests(startScheduling);

const allWeek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
  day,
  start: '00:00',
  end: '24:00',
}));

async function scheduleOf(body: object) {
  const organizationId = randomUUID();
  const schedule = await createSchedule(running, organizationHeaders(organizationId), { availability: allWeek, ...body });
  const ask = (start: string, end: string) =>
    running.neighbour.request(availabilityCheckRequest, {
      organization_id: organizationId,
      schedule_id: schedule.id,
      start_time: start,
      end_time: end,
    });
  return { schedule, ask };
}

describe('scheduling.availability.check: seats, limits and the local day', () => {
  it("when asked, then it answers the schedule's seats, day limit and public_booking with the local day of start", async () => {
    const { ask } = await scheduleOf({ timezone: 'Europe/Berlin', seats_per_slot: 40, max_bookings_per_day: 3, public_booking: true });
    // 00:30 in Berlin on 2026-03-04 is still 2026-03-03 in UTC.
    expect(await ask('2026-03-03T23:30:00Z', '2026-03-04T00:30:00Z')).toEqual({
      available: true,
      reason: null,
      timezone: 'Europe/Berlin',
      seats_per_slot: 40,
      max_bookings_per_day: 3,
      public_booking: true,
      day_start: '2026-03-03T23:00:00.000Z',
      day_end: '2026-03-04T23:00:00.000Z',
    });
  });

  it.each([
    ['a spring-forward day (23 hours)', '2026-03-08T15:00:00Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ['a fall-back day (25 hours)', '2026-11-01T15:00:00Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'],
    ['late on a spring-forward day', '2026-03-09T03:30:00Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ['just after its end', '2026-03-09T04:00:00Z', '2026-03-09T04:00:00.000Z', '2026-03-10T04:00:00.000Z'],
  ])('when start is on %s in New York, then day_start and day_end are its local midnights', async (_case, start, dayStart, dayEnd) => {
    const { ask } = await scheduleOf({ timezone: 'America/New_York' });
    const end = new Date(Date.parse(start) + 1_800_000).toISOString();
    expect(await ask(start, end)).toMatchObject({
      day_start: dayStart,
      day_end: dayEnd,
      seats_per_slot: 1,
      max_bookings_per_day: null,
      public_booking: false,
    });
  });

  it('when start is later than now + booking_horizon_days, then the reason is beyond_horizon', async () => {
    const { ask } = await scheduleOf({ booking_horizon_days: 2 });
    // now + 2 days = Wednesday 2026-03-04 08:00 UTC: starting then is allowed, a minute later is not.
    expect(await ask('2026-03-04T08:00:00Z', '2026-03-04T08:30:00Z')).toMatchObject({ available: true, reason: null });
    expect(await ask('2026-03-04T08:01:00Z', '2026-03-04T08:31:00Z')).toMatchObject({ available: false, reason: 'beyond_horizon' });
  });
});
