import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingRecordSchema, createdOrganizationSchema, dataEnvelope, errorBodySchema, scheduleRecordSchema } from '@app/contracts';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** A date `days` from today (UTC), YYYY-MM-DD. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00.000Z`;
const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };

/**
 * What a booking asks the real scheduling and events processes before it is written, through the gateway. The
 * bookings suite fakes them at their NATS boundary (it relays what they answer); these are the answers themselves.
 */
describe('booking checks against the real scheduling and events services', () => {
  let stack: E2eStack;
  let key: string;
  let otherKey: string;
  let scheduleId: string;
  const call = (method: string, path: string, body?: unknown, as = key) => stack.call(method, path, { key: as, body });
  const organization = async (name: string) => {
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name },
    });
    return dataEnvelope(createdOrganizationSchema).parse(created.body).data.api_key;
  };
  const newSchedule = async (body: Record<string, unknown>, as = key) =>
    dataEnvelope(scheduleRecordSchema).parse((await call('POST', '/api/v1/schedules', { name: 'Desk', ...body }, as)).body).data.id;
  const book = (body: Record<string, unknown>, as = key) => call('POST', '/api/v1/bookings', { attendee, ...body }, as);
  const codeOf = (response: { body: unknown }) => errorBodySchema.parse(response.body).code;

  beforeAll(async () => {
    // This stack's calendar-sync never polls: the database is shared with the other files' stacks and their fake calendars.
    stack = await startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000' });
    [key, otherKey] = [await organization('Checks'), await organization('Elsewhere')];
    // Working hours 09:00-17:00 in Berlin every day, 30 minutes' notice.
    scheduleId = await newSchedule({
      timezone: 'Europe/Berlin',
      minimum_notice: 30,
      availability: WEEK.map((d) => ({ day: d, start: '09:00', end: '17:00' })),
    });
  }, 120_000);
  afterAll(() => stack?.stop());

  it("when the interval is inside the working hours, then the booking is created in the schedule's zone", async () => {
    const created = await book({ schedule_id: scheduleId, start_time: at(day(3), '10:00'), end_time: at(day(3), '10:30') });
    expect(created.status).toBe(201);
    expect(dataEnvelope(bookingRecordSchema).parse(created.body).data).toMatchObject({ timezone: 'Europe/Berlin', status: 'PENDING' });
  });

  it.each([
    [
      'outside the working hours',
      () => ({ start_time: at(day(3), '20:00'), end_time: at(day(3), '20:30') }),
      "The requested time is outside the schedule's availability",
    ],
    [
      'partly after the working hours',
      () => ({ start_time: at(day(3), '15:45'), end_time: at(day(3), '16:15') }),
      "The requested time is outside the schedule's availability",
    ],
    [
      'in the past',
      () => ({ start_time: at(day(-3), '10:00'), end_time: at(day(-3), '10:30') }),
      "The requested time is within the schedule's minimum notice",
    ],
  ])('when the interval is %s, then it is a 409 SLOT_UNAVAILABLE saying why', async (_case, times, error) => {
    const refused = await book({ schedule_id: scheduleId, ...times() });
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(refused.body)).toEqual({ error, code: 'SLOT_UNAVAILABLE' });
  });

  it('when a booking is moved outside the working hours, then it is a 409 SLOT_UNAVAILABLE and it stays', async () => {
    const created = await book({ schedule_id: scheduleId, start_time: at(day(4), '10:00'), end_time: at(day(4), '10:30') });
    const { id } = dataEnvelope(bookingRecordSchema).parse(created.body).data;
    const moved = await call('PATCH', `/api/v1/bookings/${id}`, { start_time: at(day(4), '21:00'), end_time: at(day(4), '21:30') });
    expect(moved.status).toBe(409);
    expect(codeOf(moved)).toBe('SLOT_UNAVAILABLE');
    const kept = dataEnvelope(bookingRecordSchema).parse((await call('GET', `/api/v1/bookings/${id}`)).body).data;
    expect(kept.start_time).toBe(at(day(4), '10:00'));
  });

  it('when the schedule is unknown, inactive or another organization’s, then it is a 404 SCHEDULE_NOT_FOUND', async () => {
    const inactive = await newSchedule({ is_active: false });
    const foreign = await newSchedule({}, otherKey);
    for (const schedule of [randomUUID(), inactive, foreign]) {
      const refused = await book({ schedule_id: schedule, start_time: at(day(5), '10:00'), end_time: at(day(5), '10:30') });
      expect(refused.status).toBe(404);
      expect(errorBodySchema.parse(refused.body)).toEqual({ error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' });
    }
  });

  it('when the event type is the organization’s, then the booking refers to it; when unknown or another’s, then 404 NOT_FOUND', async () => {
    const ownType = dataEnvelope(bookingRecordSchema.pick({ id: true })).parse(
      (await call('POST', '/api/v1/event-types', { title: 'Intro call', duration: 30 })).body,
    ).data.id;
    const foreignType = dataEnvelope(bookingRecordSchema.pick({ id: true })).parse(
      (await call('POST', '/api/v1/event-types', { title: 'Theirs', duration: 30 }, otherKey)).body,
    ).data.id;
    const times = (time: string) => ({ start_time: at(day(6), time), end_time: at(day(6), time.replace(':00', ':30')) });
    const created = await book({ schedule_id: scheduleId, event_type_id: ownType, ...times('10:00') });
    expect(created.status).toBe(201);
    expect(dataEnvelope(bookingRecordSchema).parse(created.body).data.event_type_id).toBe(ownType);
    for (const eventType of [randomUUID(), foreignType, 'nope']) {
      const refused = await book({ schedule_id: scheduleId, event_type_id: eventType, ...times('11:00') });
      expect(refused.status).toBe(404);
      expect(codeOf(refused)).toBe('NOT_FOUND');
    }
  });

  it('when several checks fail, then the first in API.md order is reported', async () => {
    const outside = { start_time: at(day(7), '22:00'), end_time: at(day(7), '22:30'), event_type_id: randomUUID() };
    expect(codeOf(await book({ schedule_id: randomUUID(), ...outside }))).toBe('SCHEDULE_NOT_FOUND');
    expect(codeOf(await book({ schedule_id: scheduleId, ...outside }))).toBe('NOT_FOUND');
  });
});
