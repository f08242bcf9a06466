import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { availabilityCheckRequest, bookingCreatedEvent, calendarBusyUpdatedEvent, scheduleGetRequest } from '@app/contracts';
import { AppError } from '@app/service-kit';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { POLL, createSchedule, publishEvent, startScheduling } from './support/harness.js';

// Its clock stands at NOW: Monday 2026-03-02 08:00 UTC.
const running = startedForTests(startScheduling);

async function replyError(promise: Promise<unknown>): Promise<{ code: string; message: string } | null> {
  return promise.then(
    () => null,
    (error: unknown) =>
      error instanceof AppError ? { code: error.code, message: error.message } : { code: 'UNEXPECTED', message: String(error) },
  );
}

describe('scheduling.schedule.get', () => {
  it("when the schedule is active and the organization's, then it answers its booking settings", async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, headersOf(organizationId), {
      timezone: 'Europe/Paris',
      slot_duration: 45,
      buffer_before: 5,
      buffer_after: 10,
    });
    const reply = await running.neighbour.request(scheduleGetRequest, { organization_id: organizationId, schedule_id: schedule.id });
    expect(reply).toEqual({
      id: schedule.id,
      name: 'Consulting',
      timezone: 'Europe/Paris',
      slot_duration: 45,
      buffer_before: 5,
      buffer_after: 10,
      is_active: true,
    });
  });

  it.each([
    ['unknown', async () => ({ organization_id: randomUUID(), schedule_id: randomUUID() })],
    ['malformed', async () => ({ organization_id: randomUUID(), schedule_id: 'nope' })],
    [
      'inactive',
      async () => {
        const organizationId = randomUUID();
        const schedule = await createSchedule(running, headersOf(organizationId), { is_active: false });
        return { organization_id: organizationId, schedule_id: schedule.id };
      },
    ],
    [
      'of another organization',
      async () => ({ organization_id: randomUUID(), schedule_id: (await createSchedule(running, headersOf(randomUUID()))).id }),
    ],
  ])('when the schedule is %s, then it answers SCHEDULE_NOT_FOUND', async (_case, request) => {
    expect(await replyError(running.neighbour.request(scheduleGetRequest, await request()))).toEqual({
      code: 'SCHEDULE_NOT_FOUND',
      message: 'Schedule not found or inactive',
    });
  });
});

describe('scheduling.availability.check', () => {
  const ask = (organizationId: string, scheduleId: string, start: string, end: string) =>
    running.neighbour.request(availabilityCheckRequest, {
      organization_id: organizationId,
      schedule_id: scheduleId,
      start_time: start,
      end_time: end,
    });
  /** The verdict alone (the reply also carries the schedule's zone, asserted on its own). */
  const check = async (organizationId: string, scheduleId: string, start: string, end: string) => {
    const { available, reason } = await ask(organizationId, scheduleId, start, end);
    return { available, reason };
  };

  it('when asked, then the reply also names the schedule’s own time zone (a booking needs nothing else of it)', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, headersOf(organizationId), { timezone: 'Asia/Kathmandu' });
    const reply = await ask(organizationId, schedule.id, '2026-03-03T04:00:00Z', '2026-03-03T04:30:00Z');
    expect(reply.timezone).toBe('Asia/Kathmandu');
  });

  it.each([
    ['inside the weekly hours', '2026-03-03T10:00:00Z', '2026-03-03T11:00:00Z', null],
    ['inside the hours, written with an offset', '2026-03-03T11:00:00+01:00', '2026-03-03T11:30:00+01:00', null],
    ['off the slot grid but inside the hours', '2026-03-03T10:07:00Z', '2026-03-03T10:52:00Z', null],
    ['across two touching intervals', '2026-03-04T11:30:00Z', '2026-03-04T12:30:00Z', null],
    ['across midnight into a day open from 00:00', '2026-03-05T23:30:00Z', '2026-03-06T00:30:00Z', null],
    ['partly after the hours', '2026-03-03T16:30:00Z', '2026-03-03T17:30:00Z', 'outside_availability'],
    ['on a day without hours', '2026-03-08T10:00:00Z', '2026-03-08T10:30:00Z', 'outside_availability'],
    ['on a date whose override closes it', '2026-03-10T10:00:00Z', '2026-03-10T10:30:00Z', 'outside_availability'],
    ['on a Saturday an override opens', '2026-03-07T10:00:00Z', '2026-03-07T10:30:00Z', null],
    ['reversed', '2026-03-03T11:00:00Z', '2026-03-03T10:00:00Z', 'outside_availability'],
    ['inside the hours but before now + minimum notice', '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', 'minimum_notice'],
    ['just at now + minimum notice', '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', null],
    ['in the past', '2026-02-24T10:00:00Z', '2026-02-24T10:30:00Z', 'minimum_notice'],
  ])('when the interval is %s, then the reason is %s', async (_case, start, end, reason) => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, headersOf(organizationId), {
      minimum_notice: 120,
      availability: [
        { day: 'monday', start: '09:00', end: '17:00' },
        { day: 'tuesday', start: '09:00', end: '17:00' },
        { day: 'wednesday', start: '09:00', end: '12:00' },
        { day: 'wednesday', start: '12:00', end: '17:00' },
        { day: 'thursday', start: '20:00', end: '24:00' },
        { day: 'friday', start: '00:00', end: '02:00' },
      ],
      date_overrides: [
        { date: '2026-03-10', intervals: [] },
        { date: '2026-03-07', intervals: [{ start: '09:00', end: '12:00' }] },
      ],
    });
    expect(await check(organizationId, schedule.id, start, end)).toEqual({ available: reason === null, reason });
  });

  it.each([
    ['09:00 EDT after the change', '2026-03-09T13:00:00Z', null],
    ['08:00 EST before it (the same UTC hour a week earlier is 08:00 local)', '2026-03-06T13:00:00Z', 'outside_availability'],
  ])("when a New York schedule is asked for %s, then the zone's DST is honoured", async (_case, start, reason) => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, headersOf(organizationId), { timezone: 'America/New_York' });
    const end = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    expect(await check(organizationId, schedule.id, start, end)).toEqual({ available: reason === null, reason });
  });

  it('when a calendar busy window (with buffers) overlaps, then it is calendar_busy; a booking alone is not its concern', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, headersOf(organizationId), { buffer_before: 15 });
    await publishEvent(running, bookingCreatedEvent, {
      booking_id: randomUUID(),
      schedule_id: schedule.id,
      event_type_id: null,
      status: 'CONFIRMED',
      start_time: '2026-03-03T14:00:00.000Z',
      end_time: '2026-03-03T15:00:00.000Z',
      version: 1,
    });
    await publishEvent(running, calendarBusyUpdatedEvent, {
      connection_id: randomUUID(),
      schedule_id: schedule.id,
      range: { start: '2026-03-02T00:00:00.000Z', end: '2026-03-09T00:00:00.000Z' },
      windows: [{ start: '2026-03-03T11:00:00.000Z', end: '2026-03-03T12:00:00.000Z' }],
      synced_at: '2026-03-02T07:00:00.000Z',
    });
    await expect
      .poll(() => check(organizationId, schedule.id, '2026-03-03T11:30:00Z', '2026-03-03T12:00:00Z'), POLL)
      .toEqual({ available: false, reason: 'calendar_busy' });
    expect(await check(organizationId, schedule.id, '2026-03-03T10:30:00Z', '2026-03-03T11:00:00Z')).toEqual({
      available: false,
      reason: 'calendar_busy',
    });
    expect(await check(organizationId, schedule.id, '2026-03-03T12:00:00Z', '2026-03-03T12:30:00Z')).toEqual({
      available: true,
      reason: null,
    });
    expect(await check(organizationId, schedule.id, '2026-03-03T14:00:00Z', '2026-03-03T15:00:00Z')).toEqual({
      available: true,
      reason: null,
    });
  });

  it("when the schedule is another organization's, then it answers SCHEDULE_NOT_FOUND", async () => {
    const schedule = await createSchedule(running, headersOf(randomUUID()));
    expect(await replyError(check(randomUUID(), schedule.id, '2026-03-03T10:00:00Z', '2026-03-03T10:30:00Z'))).toMatchObject({
      code: 'SCHEDULE_NOT_FOUND',
    });
  });
});

function headersOf(organizationId: string): Record<string, string> {
  return organizationHeaders(organizationId);
}
