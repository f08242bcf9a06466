import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { availabilityCheckRequest, eventTypeGetRequest } from '@app/contracts';
import { AppError, scheduleNotFound } from '@app/service-kit';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, unavailable, type Reply } from './support/harness.js';

const SCHEDULE_NOT_FOUND = { error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' };
const eventTypeNotFound = () => new AppError('NOT_FOUND', 'Event type not found');

describe('POST /api/v1/bookings', () => {
  const suite = bookingsSuite();
  const day = futureDay(9);

  const book = (organizationId: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body, headers);

  it('when scheduling says the slot is available, then the booking is created PENDING with the fields of the spec', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
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
    const fetched = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${String(reply.body.data.id)}`);
    // The 201 alone shows the client_secret; GET shows everything else just as the 201 did.
    const { client_secret: secret, ...record } = reply.body.data;
    expect(secret).toMatch(/^cs_/);
    expect(fetched.body.data).toEqual(record);
  });

  it('when a booking is asked for, then scheduling is asked about exactly that interval of that schedule, with the request id', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 11 * 60);
    expect((await book(organizationId, bookingBody(scheduleId, times), { 'x-request-id': 'req-ask-1' })).status).toBe(201);
    expect(suite.neighbours.received(availabilityCheckRequest)).toEqual([
      { request: { organization_id: organizationId, schedule_id: scheduleId, ...times }, requestId: 'req-ask-1' },
    ]);
    expect(suite.neighbours.received(eventTypeGetRequest)).toEqual([]);
  });

  it('when the instants carry an offset, then they are stored and returned in UTC', async () => {
    const date = day.toISOString().slice(0, 10);
    const reply = await book(
      newOrganization(),
      bookingBody(newScheduleId(), { start_time: `${date}T12:00:00+02:00`, end_time: `${date}T12:30:00+02:00` }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ start_time: `${date}T10:00:00.000Z`, end_time: `${date}T10:30:00.000Z` });
  });

  it('when scheduling answers SCHEDULE_NOT_FOUND (unknown, inactive or another organization), then it is a 404 SCHEDULE_NOT_FOUND', async () => {
    await suite.neighbours.fail(availabilityCheckRequest, scheduleNotFound());
    const reply = await book(newOrganization(), bookingBody(newScheduleId(), interval(day, 600)));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual(SCHEDULE_NOT_FOUND);
  });

  it('when the schedule id is malformed, then it is a 404 SCHEDULE_NOT_FOUND without asking scheduling', async () => {
    const reply = await book(newOrganization(), bookingBody('not-a-schedule', interval(day, 600)));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual(SCHEDULE_NOT_FOUND);
    expect(suite.neighbours.received(availabilityCheckRequest)).toEqual([]);
  });

  it('when events knows the event type, then the booking refers to it', async () => {
    const organizationId = newOrganization();
    const eventTypeId = randomUUID();
    const reply = await book(organizationId, bookingBody(newScheduleId(), interval(day, 600), { event_type_id: eventTypeId }));
    expect(reply.status).toBe(201);
    expect(reply.body.data.event_type_id).toBe(eventTypeId);
    expect(suite.neighbours.received(eventTypeGetRequest).map((r) => r.request)).toEqual([
      { organization_id: organizationId, event_type_id: eventTypeId },
    ]);
  });

  it('when events answers NOT_FOUND (unknown, malformed or another organization), then it is a 404 and nothing is written', async () => {
    await suite.neighbours.fail(eventTypeGetRequest, eventTypeNotFound());
    const organizationId = newOrganization();
    for (const eventTypeId of [randomUUID(), 'nope']) {
      const reply = await book(organizationId, bookingBody(newScheduleId(), interval(day, 600), { event_type_id: eventTypeId }));
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'Event type not found', code: 'NOT_FOUND' });
    }
    expect((await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings')).body.meta?.total).toBe(0);
  });

  it('when several checks fail, then the first in API.md order is reported (schedule, then event type, then availability)', async () => {
    const organizationId = newOrganization();
    const withType = (scheduleId: string) => bookingBody(scheduleId, interval(day, 22 * 60), { event_type_id: randomUUID() });
    await suite.neighbours.fail(eventTypeGetRequest, eventTypeNotFound());
    await suite.neighbours.fail(availabilityCheckRequest, scheduleNotFound());
    expect((await book(organizationId, withType(newScheduleId()))).body).toEqual(SCHEDULE_NOT_FOUND);

    await suite.neighbours.answer(availabilityCheckRequest, () => unavailable('outside_availability'));
    const unknownTypeOutside = await book(organizationId, withType(newScheduleId()));
    expect(unknownTypeOutside.status).toBe(404);
    expect(unknownTypeOutside.body.code).toBe('NOT_FOUND');
  });

  it.each([
    ['outside_availability', "The requested time is outside the schedule's availability"],
    ['minimum_notice', "The requested time is within the schedule's minimum notice"],
    ['calendar_busy', 'The requested time overlaps a busy time of a connected calendar'],
    [null, 'The requested time is not available'],
  ] as const)(
    'when scheduling says the interval is unavailable (%s), then it is a 409 SLOT_UNAVAILABLE saying why',
    async (reason, error) => {
      await suite.neighbours.answer(availabilityCheckRequest, () => unavailable(reason));
      const organizationId = newOrganization();
      const reply = await book(organizationId, bookingBody(newScheduleId(), interval(day, 20 * 60)));
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ error, code: 'SLOT_UNAVAILABLE' });
      expect((await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings')).body.meta?.total).toBe(0);
    },
  );
});
