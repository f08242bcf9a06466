import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { bookingBody, futureDay, interval } from './support/fixtures.js';
import { call, newOrganization, startBookings } from './support/harness.js';

/** No scheduling service answers on this prefix: a body that slipped through would be a 503, not a pass. */
const startBookingsAlone = () => startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_validation`, REQUEST_TIMEOUT_MS: '300' });

const day = futureDay(10);
const valid = bookingBody(randomUUID(), interval(day, 9 * 60));
const { attendee } = valid;

/** Bodies that must be refused before anything else is asked: each gives 400 naming the field. */
const BAD_BODIES: [string, unknown, string][] = [
  ['an empty body', {}, 'schedule_id is required'],
  ['no attendee', { ...valid, attendee: undefined }, 'attendee is required'],
  ['no attendee name', { ...valid, attendee: { email: 'a@example.com' } }, 'attendee.name is required'],
  ['a blank attendee name', { ...valid, attendee: { ...attendee, name: '  ' } }, 'attendee.name must not be empty'],
  ['no attendee email', { ...valid, attendee: { name: 'Ada' } }, 'attendee.email is required'],
  ['a bad attendee email', { ...valid, attendee: { ...attendee, email: 'not-an-email' } }, 'attendee.email must be an email address'],
  ['a string attendee', { ...valid, attendee: 'Ada' }, 'attendee must be an object'],
  ['no start_time', { ...valid, start_time: undefined }, 'start_time is required'],
  [
    'a start_time without offset',
    { ...valid, start_time: '2030-01-01T10:00:00' },
    'start_time must be an ISO 8601 timestamp with an offset or Z',
  ],
  ['an impossible date', { ...valid, start_time: '2030-02-30T10:00:00Z' }, 'start_time must be an ISO 8601 timestamp with an offset or Z'],
  ['a numeric end_time', { ...valid, end_time: 1893492000000 }, 'end_time must be an ISO 8601 timestamp with an offset or Z'],
  ['an end before the start', { ...valid, end_time: valid.start_time, start_time: valid.end_time }, 'end_time must be after start_time'],
  ['an empty interval', { ...valid, end_time: valid.start_time }, 'end_time must be after start_time'],
  ['an unknown location_type', { ...valid, location_type: 'zoom' }, 'location_type must be one of in_person, phone, video, custom'],
  ['array metadata', { ...valid, metadata: [1, 2] }, 'metadata must be an object'],
  ['string metadata', { ...valid, metadata: 'x' }, 'metadata must be an object'],
  ['an unknown timezone', { ...valid, timezone: 'Mars/Olympus_Mons' }, 'timezone must be an IANA time zone name'],
  [
    'an unknown attendee timezone',
    { ...valid, attendee: { ...attendee, timezone: 'Nowhere' } },
    'attendee.timezone must be an IANA time zone name',
  ],
  ['a numeric schedule_id', { ...valid, schedule_id: 42 }, 'schedule_id must be a string'],
  ['a numeric title', { ...valid, title: 7 }, 'title must be a string'],
  ['a title too long', { ...valid, title: 'x'.repeat(501) }, 'title must be at most 500 characters'],
  ['an unknown field', { ...valid, notes: 'hi' }, 'body has unknown field notes'],
  ['an unknown attendee field', { ...valid, attendee: { ...attendee, age: 3 } }, 'attendee has unknown field age'],
];

describe('POST /api/v1/bookings (validation)', () => {
  const running = startedForTests(startBookingsAlone);
  const organizationId = newOrganization();

  it.each(BAD_BODIES)('when the body has %s, then it is a 400 naming the field', async (_case, body, message) => {
    const reply = await call(running, organizationId, 'POST', '/api/v1/bookings', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
  });

  it.each([
    ['malformed JSON', '{"schedule_id":'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"booking"'],
  ])('when the body is %s, then it is a 400', async (_case, payload) => {
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { ...organizationHeaders(organizationId), 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('when the Idempotency-Key is too long, then it is a 400', async () => {
    const reply = await call(running, organizationId, 'POST', '/api/v1/bookings', valid, { 'idempotency-key': 'k'.repeat(256) });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'idempotency-key must be at most 255 characters', code: 'VALIDATION_ERROR' });
  });

  it('when the body is larger than 1 MB, then it is a 413', async () => {
    const reply = await call(running, organizationId, 'POST', '/api/v1/bookings', {
      ...valid,
      metadata: { blob: 'x'.repeat(1024 * 1024) },
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('PATCH /api/v1/bookings/{id} (validation)', () => {
  const running = startedForTests(startBookingsAlone);
  const organizationId = newOrganization();

  it.each([
    ['an unknown status', { status: 'DONE' }, 'status must be one of PENDING, CONFIRMED, CANCELLED, COMPLETED, NO_SHOW'],
    ['a lowercase status', { status: 'confirmed' }, 'status must be one of PENDING, CONFIRMED, CANCELLED, COMPLETED, NO_SHOW'],
    ['start_time without end_time', { start_time: valid.start_time }, 'end_time is required'],
    ['end_time without start_time', { end_time: valid.end_time }, 'start_time is required'],
    ['a reversed interval', { start_time: valid.end_time, end_time: valid.start_time }, 'end_time must be after start_time'],
    ['array metadata', { metadata: [] }, 'metadata must be an object'],
    ['an unknown field', { attendee_name: 'Bob' }, 'body has unknown field attendee_name'],
  ])('when the body has %s, then it is a 400 naming the field', async (_case, body, message) => {
    const reply = await call(running, organizationId, 'PATCH', `/api/v1/bookings/${randomUUID()}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
  });
});

describe('GET /api/v1/bookings (validation)', () => {
  const running = startedForTests(startBookingsAlone);
  const organizationId = newOrganization();

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 200'],
    ['limit=201', 'limit must be an integer from 1 to 200'],
    ['limit=abc', 'limit must be an integer from 1 to 200'],
    ['offset=-1', 'offset must be a non-negative integer'],
    ['status=DONE', 'status must be one of PENDING, CONFIRMED, CANCELLED, COMPLETED, NO_SHOW'],
    ['schedule_id=nope', 'schedule_id must be a UUID'],
    ['event_type_id=nope', 'event_type_id must be a UUID'],
    ['upcoming=yes', 'upcoming must be true or false'],
    ['start_date=2030-02-30', 'start_date must be a date YYYY-MM-DD or an ISO 8601 timestamp with an offset'],
    ['end_date=2030-01-01T10:00:00', 'end_date must be a date YYYY-MM-DD or an ISO 8601 timestamp with an offset'],
    ['sort=start_time', 'query has unknown field sort'],
  ])('when the query has %s, then it is a 400 naming the parameter', async (query, message) => {
    const reply = await call(running, organizationId, 'GET', `/api/v1/bookings?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
  });

  it.each(['not-a-uuid', '123', "1' OR '1'='1", 'ffffffff-ffff-ffff-ffff-fffffffffffff'])(
    'when the id is malformed (%s), then GET, PATCH and DELETE are 404',
    async (id) => {
      const path = `/api/v1/bookings/${encodeURIComponent(id)}`;
      for (const [method, body] of [['GET'], ['PATCH', { status: 'CONFIRMED' }], ['DELETE']] as const) {
        const reply = await call(running, organizationId, method, path, body);
        expect(reply.status).toBe(404);
        expect(reply.body).toMatchObject({ error: 'Booking not found', code: 'NOT_FOUND' });
      }
    },
  );

  it('when the request lacks the organization the gateway stamps, then it is a 401', async () => {
    const response = await running.app.inject({ method: 'GET', url: '/api/v1/bookings' });
    expect(response.statusCode).toBe(401);
  });
});
