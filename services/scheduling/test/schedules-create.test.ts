import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULING_STREAM, type ScheduleRecord } from '@app/contracts';
import { organizationHeaders } from '@app/service-testing';
import { NOW, POLL, createSchedule, startScheduling, type Running } from './support/harness.js';

let running: Running;
let ticks = 0;
beforeAll(async () => {
  // A clock that moves a millisecond per reading, so records created one after another sort in that order.
  running = await startScheduling(() => new Date(NOW.getTime() + ticks++));
});
afterAll(() => running.stop());

const weekdayHours = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, start: '09:00', end: '17:00' }));

describe('POST /api/v1/schedules', () => {
  it('when only a name is sent, then every default of API.md is applied with the organization timezone', async () => {
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/schedules',
      headers: organizationHeaders(undefined, 'Europe/Berlin'),
      payload: { name: 'Consulting' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        id: expect.any(String),
        name: 'Consulting',
        timezone: 'Europe/Berlin',
        slot_duration: 30,
        slot_interval: 30,
        is_active: true,
        availability: weekdayHours,
        date_overrides: [],
        buffer_before: 0,
        buffer_after: 0,
        minimum_notice: 0,
        seats_per_slot: 1,
        max_bookings_per_day: null,
        booking_horizon_days: null,
        public_booking: false,
        created_at: expect.stringMatching(/^2026-03-02T08:00:00\.\d{3}Z$/),
        updated_at: expect.stringMatching(/^2026-03-02T08:00:00\.\d{3}Z$/),
      },
    });
  });

  it('when the organization has no timezone, then the schedule is in UTC', async () => {
    const schedule = await createSchedule(running, organizationHeaders(randomUUID()));
    expect(schedule.timezone).toBe('UTC');
  });

  it('when every field is sent, then they are stored as sent (zone in canonical spelling)', async () => {
    const body = {
      name: 'Clinic',
      timezone: 'america/new_york',
      slot_duration: 60,
      slot_interval: 15,
      is_active: false,
      availability: [
        { day: 'monday', start: '13:00', end: '17:00' },
        { day: 'monday', start: '08:00', end: '12:00' },
        { day: 'sunday', start: '20:00', end: '24:00' },
      ],
      date_overrides: [
        { date: '2026-12-24', intervals: [] },
        { date: '2026-12-26', intervals: [{ start: '10:00', end: '12:00' }] },
      ],
      buffer_before: 10,
      buffer_after: 15,
      minimum_notice: 120,
    };
    const schedule = await createSchedule(running, organizationHeaders(), body);
    expect(schedule).toMatchObject({ ...body, timezone: 'America/New_York' });
  });

  it.each(['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Kathmandu'])(
    'when the zone is %s, then the schedule keeps that name (not an older alias of it)',
    async (timezone) => {
      const schedule = await createSchedule(running, organizationHeaders(), { name: 'Zone', timezone });
      expect(schedule.timezone).toBe(timezone);
    },
  );

  it('when it is created, then scheduling.schedule.created is published with the record', async () => {
    const schedule = await createSchedule(running, organizationHeaders());
    const stream = running.infra.bus.streamName(SCHEDULING_STREAM.name);
    const lastCreated = async () => {
      const msg = await running.infra.bus.jsm.streams
        .getMessage(stream, { last_by_subj: running.infra.bus.subject('scheduling.schedule.created') })
        .catch(() => null);
      return msg?.json<{ type: string; data: ScheduleRecord }>() ?? null;
    };
    await expect.poll(lastCreated, POLL).toMatchObject({ type: 'scheduling.schedule.created', data: schedule });
  });

  it.each([
    ['the name is missing', {}, 'name is required'],
    ['the name is blank', { name: '  ' }, 'name must not be empty'],
    ['the timezone is unknown', { timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone name'],
    ['slot_duration is below 5', { slot_duration: 4 }, 'slot_duration must be from 5 to 1440 minutes'],
    ['slot_duration is above 1440', { slot_duration: 1441 }, 'slot_duration must be from 5 to 1440 minutes'],
    ['slot_duration is not an integer', { slot_duration: 30.5 }, 'slot_duration must be an integer number of minutes'],
    ['slot_duration is a string', { slot_duration: '30' }, 'slot_duration must be an integer number of minutes'],
    ['slot_interval is 0', { slot_interval: 0 }, 'slot_interval must be from 5 to 1440 minutes'],
    ['a buffer is negative', { buffer_before: -5 }, 'buffer_before must be from 0 to 1440 minutes'],
    ['minimum_notice is negative', { minimum_notice: -1 }, 'minimum_notice must be from 0 to 525600 minutes'],
    ['a day is unknown', { availability: [{ day: 'funday', start: '09:00', end: '10:00' }] }, 'availability.0.day must be one of monday'],
    [
      'a day is capitalised',
      { availability: [{ day: 'Monday', start: '09:00', end: '10:00' }] },
      'availability.0.day must be one of monday',
    ],
    [
      'an interval is reversed',
      { availability: [{ day: 'monday', start: '10:00', end: '09:00' }] },
      'availability.0.end must be after start',
    ],
    ['an interval is empty', { availability: [{ day: 'monday', start: '10:00', end: '10:00' }] }, 'availability.0.end must be after start'],
    [
      'intervals of a day overlap',
      {
        availability: [
          { day: 'monday', start: '09:00', end: '12:00' },
          { day: 'monday', start: '11:00', end: '13:00' },
        ],
      },
      'availability.1 overlaps interval 0',
    ],
    [
      'an interval starts at 24:00',
      { availability: [{ day: 'monday', start: '24:00', end: '24:00' }] },
      'availability.0.start must be a time HH:MM',
    ],
    [
      'an interval ends after 24:00',
      { availability: [{ day: 'monday', start: '09:00', end: '24:30' }] },
      'availability.0.end must be a time HH:MM (24:00 allowed)',
    ],
    [
      'a time is not HH:MM',
      { availability: [{ day: 'monday', start: '9:00', end: '10:00' }] },
      'availability.0.start must be a time HH:MM',
    ],
    [
      'an interval has an unknown field',
      { availability: [{ day: 'monday', start: '09:00', end: '10:00', tz: 'UTC' }] },
      'availability.0 has unknown field tz',
    ],
    ['availability is not an array', { availability: 'weekdays' }, 'availability'],
    [
      'an override date does not exist',
      { date_overrides: [{ date: '2026-02-30', intervals: [] }] },
      'date_overrides.0.date must be a date YYYY-MM-DD',
    ],
    [
      'an override date repeats',
      {
        date_overrides: [
          { date: '2026-05-01', intervals: [] },
          { date: '2026-05-01', intervals: [] },
        ],
      },
      'date_overrides.1.date repeats an earlier date',
    ],
    [
      'an override interval is reversed',
      { date_overrides: [{ date: '2026-05-01', intervals: [{ start: '12:00', end: '11:00' }] }] },
      'date_overrides.0.intervals.0.end must be after start',
    ],
    [
      'override intervals overlap',
      {
        date_overrides: [
          {
            date: '2026-05-01',
            intervals: [
              { start: '09:00', end: '11:00' },
              { start: '10:00', end: '12:00' },
            ],
          },
        ],
      },
      'date_overrides.0.intervals.1 overlaps interval 0',
    ],
    ['an override has no intervals field', { date_overrides: [{ date: '2026-05-01' }] }, 'date_overrides.0.intervals is required'],
    ['an unknown field is sent', { name: 'x', colour: 'red' }, 'has unknown field colour'],
  ])('when %s, then it is a 400 naming the field', async (_case, body, message) => {
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/schedules',
      headers: organizationHeaders(),
      payload: _case === 'the name is missing' ? body : { name: 'Consulting', ...body },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.json<{ error: string }>().error).toContain(message);
  });

  it('when intervals touch or repeat on different days, then they are accepted', async () => {
    const availability = [
      { day: 'monday', start: '09:00', end: '12:00' },
      { day: 'monday', start: '12:00', end: '17:00' },
      { day: 'tuesday', start: '09:00', end: '12:00' },
    ];
    expect((await createSchedule(running, organizationHeaders(), { availability })).availability).toEqual(availability);
  });

  it('when the body is not JSON, then it is a 400', async () => {
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/schedules',
      headers: { ...organizationHeaders(), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
  });

  it('when no organization is stamped, then it is a 401', async () => {
    const response = await running.app.inject({ method: 'POST', url: '/api/v1/schedules', payload: { name: 'x' } });
    expect(response.statusCode).toBe(401);
  });
});
