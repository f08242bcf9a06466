import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { NOW, createSchedule, getSlots, startScheduling } from './support/harness.js';

let now = NOW;
const running = startedForTests(() => startScheduling(() => now));

describe('GET /api/bookings/slots', () => {
  it('when a day is asked, then the response has the exact shape of the spec', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), { name: 'Advice', slot_duration: 60 });
    const { status, body } = await getSlots(running, { scheduleId: schedule.id, startDate: '2026-03-02', endDate: '2026-03-02' });
    expect(status).toBe(200);
    expect(body).toEqual({
      schedule: { id: schedule.id, name: 'Advice', timezone: 'UTC', slotDuration: 60 },
      days: [
        {
          date: '2026-03-02',
          slots: ['09', '10', '11', '12', '13', '14', '15', '16'].map((hour) => ({
            start: `2026-03-02T${hour}:00:00.000Z`,
            end: `2026-03-02T${String(Number(hour) + 1).padStart(2, '0')}:00:00.000Z`,
            status: 'available',
            label: `${hour}:00`,
            seats_remaining: 1,
          })),
        },
      ],
    });
  });

  it("when no dates are given, then the range is today..today+14 in the schedule's zone", async () => {
    now = new Date('2026-03-02T20:00:00.000Z'); // already 3 March in Auckland (+13)
    const schedule = await createSchedule(running, organizationHeaders(undefined, 'Pacific/Auckland'));
    const { status, body } = await getSlots(running, { scheduleId: schedule.id });
    expect(status).toBe(200);
    expect(body.schedule.timezone).toBe('Pacific/Auckland');
    expect(body.days.map((day) => day.date)).toEqual(dates('2026-03-03', 15));
    expect(body.days[0]?.slots[0]).toMatchObject({ start: '2026-03-02T20:00:00.000Z', label: '09:00' });
  });

  it('when a timezone is given without dates, then today is taken there and labels follow it', async () => {
    now = new Date('2026-03-02T05:00:00.000Z'); // still 1 March in Los Angeles
    const schedule = await createSchedule(running, organizationHeaders());
    const { body } = await getSlots(running, { scheduleId: schedule.id, timezone: 'America/Los_Angeles' });
    expect(body.schedule.timezone).toBe('UTC');
    expect(body.days[0]?.date).toBe('2026-03-01');
    expect(body.days).toHaveLength(15);
    expect(body.days[1]?.slots[0]).toMatchObject({ start: '2026-03-02T09:00:00.000Z', label: '01:00' });
  });

  it('when only startDate is given, then the range ends 14 days later; only endDate, it starts today', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders());
    const fromStart = await getSlots(running, { scheduleId: schedule.id, startDate: '2026-04-01' });
    expect(fromStart.body.days.map((day) => day.date)).toEqual(dates('2026-04-01', 15));
    const toEnd = await getSlots(running, { scheduleId: schedule.id, endDate: '2026-03-04' });
    expect(toEnd.body.days.map((day) => day.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04']);
  });

  it('when the range is 62 days, then it has 63 dates', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders());
    const { status, body } = await getSlots(running, { scheduleId: schedule.id, startDate: '2026-03-02', endDate: '2026-05-03' });
    expect(status).toBe(200);
    expect(body.days).toHaveLength(63);
  });

  it('when now + minimum notice is inside the day, then earlier slots are not offered', async () => {
    now = new Date('2026-03-02T09:10:00.000Z');
    const schedule = await createSchedule(running, organizationHeaders(), { minimum_notice: 60 });
    const { body } = await getSlots(running, { scheduleId: schedule.id, startDate: '2026-03-02', endDate: '2026-03-02' });
    expect(body.days[0]?.slots[0]?.label).toBe('10:30');
    expect(body.days[0]?.slots).toHaveLength(13);
  });

  it('when the schedule is in New York, then slots follow its DST change and another zone regroups them', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), { timezone: 'America/New_York' });
    const ny = await getSlots(running, { scheduleId: schedule.id, startDate: '2026-03-06', endDate: '2026-03-09' });
    expect(ny.body.days.map((day) => [day.date, day.slots[0]?.start ?? null])).toEqual([
      ['2026-03-06', '2026-03-06T14:00:00.000Z'],
      ['2026-03-07', null],
      ['2026-03-08', null],
      ['2026-03-09', '2026-03-09T13:00:00.000Z'],
    ]);
    const tokyo = await getSlots(running, {
      scheduleId: schedule.id,
      startDate: '2026-03-10',
      endDate: '2026-03-10',
      timezone: 'Asia/Tokyo',
    });
    expect(tokyo.body.days[0]?.slots.map((slot) => slot.label).slice(0, 3)).toEqual(['00:00', '00:30', '01:00']);
    expect(tokyo.body.schedule.timezone).toBe('America/New_York');
  });

  it.each([
    ['endDate is before startDate', { startDate: '2026-03-10', endDate: '2026-03-09' }, 'endDate must not be before startDate'],
    ['the range is over 62 days', { startDate: '2026-03-02', endDate: '2026-05-04' }, 'endDate must be at most 62 days after startDate'],
    ['only endDate is given and it is before today', { endDate: '2026-03-01' }, 'endDate must not be before startDate'],
    ['only endDate is given and it is weeks before today', { endDate: '2026-02-01' }, 'endDate must not be before startDate'],
    ['only endDate is given and it is years before today', { endDate: '2020-01-01' }, 'endDate must not be before startDate'],
    ['only endDate is given and it is far away', { endDate: '2027-03-01' }, 'endDate must be at most 62 days after startDate'],
    ['startDate does not exist', { startDate: '2026-02-30' }, 'startDate must be a date YYYY-MM-DD'],
    ['startDate is not a date', { startDate: 'tomorrow' }, 'startDate must be a date YYYY-MM-DD'],
    ['endDate has a time', { endDate: '2026-03-05T00:00:00Z' }, 'endDate must be a date YYYY-MM-DD'],
    ['the timezone is unknown', { timezone: 'Nowhere/Special' }, 'timezone must be an IANA time zone name'],
  ])('when %s, then it is a 400', async (_case, query, message) => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders());
    const { status, body } = await getSlots(running, { scheduleId: schedule.id, ...query });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
  });

  it('when scheduleId is missing, then it is a 400 naming it', async () => {
    const { status, body } = await getSlots(running, {});
    expect(status).toBe(400);
    expect(body.error).toBe('scheduleId is required');
  });

  it.each([
    ['unknown', async () => randomUUID()],
    ['malformed', async () => 'abc; DROP TABLE schedules'],
    ['inactive', async () => (await createSchedule(running, organizationHeaders(), { is_active: false })).id],
  ])('when the schedule is %s, then it is a 404 "Schedule not found or inactive"', async (_case, id) => {
    const { status, body } = await getSlots(running, { scheduleId: await id() });
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' });
  });

  it('when a key of another organization was sent, then its schedule is a 404; without a key it is public', async () => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders());
    const foreign = await getSlots(running, { scheduleId: schedule.id }, organizationHeaders());
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('SCHEDULE_NOT_FOUND');
    const anonymous = await getSlots(running, { scheduleId: schedule.id });
    expect(anonymous.status).toBe(200);
  });

  it("when the owner's key was sent, then its schedule answers", async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    expect((await getSlots(running, { scheduleId: schedule.id }, headers)).status).toBe(200);
  });
});

function dates(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
}

describe('GET /api/bookings/slots at the edges of the calendar', () => {
  it.each([
    ['the first days of 1900', '1900-01-01', '1900-01-03'],
    ['the last days of 9998', '9998-12-29', '9998-12-31'],
  ])('when the range is %s, then it answers 200 with those dates', async (_case, startDate, endDate) => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), { timezone: 'America/New_York' });
    const { status, body } = await getSlots(running, { scheduleId: schedule.id, startDate, endDate });
    expect(status).toBe(200);
    expect(body.days.map((day) => day.date)).toEqual(dates(startDate, 3));
  });

  // Dates are 1900-01-01 to 9998-12-31 everywhere in the API (contracts' localDateSchema).
  it.each([
    ['startDate', { startDate: '0001-01-01', endDate: '0001-01-03' }],
    ['startDate', { startDate: '1850-06-01', endDate: '1850-06-03' }],
    ['endDate', { startDate: '9998-12-29', endDate: '9999-12-31' }],
  ])('when %s is outside the years 1900-9998, then it is a 400 naming it', async (field, query) => {
    now = NOW;
    const schedule = await createSchedule(running, organizationHeaders(), { timezone: 'America/New_York' });
    const { status, body } = await getSlots(running, { scheduleId: schedule.id, ...query });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', error: `${field} must be a date from 1900-01-01 to 9998-12-31` });
  });
});
