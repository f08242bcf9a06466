import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createEventType, createSchedule, futureDay, interval } from './support/fixtures.js';
import { call, newOrganization, startStack, type Reply, type Stack } from './support/stack.js';

const SCHEDULE_NOT_FOUND = { error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' };

describe('POST /api/v1/bookings', () => {
  let stack: Stack;
  const day = futureDay(9);
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', body);

  /** A fresh organization with a schedule open around the clock. */
  async function arrange(overrides: Record<string, unknown> = {}) {
    const organizationId = newOrganization();
    const scheduleId = await createSchedule(stack, organizationId, overrides);
    return { organizationId, scheduleId };
  }

  it('when the slot is free, then the booking is created PENDING with the fields of the spec', async () => {
    const { organizationId, scheduleId } = await arrange();
    const times = interval(day, 10 * 60);
    const reply = await book(
      organizationId,
      bookingBody(scheduleId, times, { title: 'Intro', location_type: 'video', metadata: { ref: 7 } }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      schedule_id: scheduleId,
      status: 'PENDING',
      start_time: times.start_time,
      end_time: times.end_time,
    });
    expect(reply.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const fetched = await call(stack.bookings, organizationId, 'GET', `/api/v1/bookings/${String(reply.body.data.id)}`);
    expect(fetched.body.data).toEqual(reply.body.data);
  });

  it('when the instants carry an offset, then they are stored and returned in UTC', async () => {
    const { organizationId, scheduleId } = await arrange();
    const date = day.toISOString().slice(0, 10);
    const reply = await book(
      organizationId,
      bookingBody(scheduleId, { start_time: `${date}T12:00:00+02:00`, end_time: `${date}T12:30:00+02:00` }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ start_time: `${date}T10:00:00.000Z`, end_time: `${date}T10:30:00.000Z` });
  });

  it.each([
    ['unknown', () => randomUUID()],
    ['malformed', () => 'not-a-schedule'],
  ])('when the schedule is %s, then it is a 404 SCHEDULE_NOT_FOUND', async (_case, scheduleId) => {
    const reply = await book(newOrganization(), bookingBody(scheduleId(), interval(day, 600)));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual(SCHEDULE_NOT_FOUND);
  });

  it("when the schedule is another organization's, then it is a 404 SCHEDULE_NOT_FOUND", async () => {
    const { scheduleId } = await arrange();
    const reply = await book(newOrganization(), bookingBody(scheduleId, interval(day, 600)));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual(SCHEDULE_NOT_FOUND);
  });

  it('when the schedule is inactive, then it is a 404 SCHEDULE_NOT_FOUND', async () => {
    const { organizationId, scheduleId } = await arrange({ is_active: false });
    const reply = await book(organizationId, bookingBody(scheduleId, interval(day, 600)));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual(SCHEDULE_NOT_FOUND);
  });

  it('when the event type exists in the organization, then the booking refers to it', async () => {
    const { organizationId, scheduleId } = await arrange();
    const eventTypeId = await createEventType(stack, organizationId);
    const reply = await book(organizationId, bookingBody(scheduleId, interval(day, 600), { event_type_id: eventTypeId }));
    expect(reply.status).toBe(201);
    expect(reply.body.data.event_type_id).toBe(eventTypeId);
  });

  it("when the event type is unknown or another organization's, then it is a 404", async () => {
    const { organizationId, scheduleId } = await arrange();
    const foreign = await createEventType(stack, newOrganization());
    for (const eventTypeId of [randomUUID(), foreign, 'nope']) {
      const reply = await book(organizationId, bookingBody(scheduleId, interval(day, 600), { event_type_id: eventTypeId }));
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe('NOT_FOUND');
    }
  });

  it('when several checks fail, then the first in API.md order is reported', async () => {
    const { organizationId, scheduleId } = await arrange({ availability: [{ day: 'monday', start: '09:00', end: '10:00' }] });
    const outside = interval(day, 22 * 60);
    const unknownBoth = await book(organizationId, bookingBody(randomUUID(), outside, { event_type_id: randomUUID() }));
    expect(unknownBoth.body).toEqual(SCHEDULE_NOT_FOUND);
    const unknownTypeOutside = await book(organizationId, bookingBody(scheduleId, outside, { event_type_id: randomUUID() }));
    expect(unknownTypeOutside.status).toBe(404);
    expect(unknownTypeOutside.body.code).toBe('NOT_FOUND');
  });

  it('when the interval is outside the availability or in the past, then it is a 409 SLOT_UNAVAILABLE', async () => {
    const { organizationId, scheduleId } = await arrange({
      availability: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({
        day: d,
        start: '09:00',
        end: '17:00',
      })),
    });
    for (const times of [interval(day, 20 * 60), interval(day, 16 * 60 + 45), interval(futureDay(-3), 10 * 60)]) {
      const reply = await book(organizationId, bookingBody(scheduleId, times));
      expect(reply.status).toBe(409);
      expect(reply.body.code).toBe('SLOT_UNAVAILABLE');
    }
  });
});
