import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityCheckRequest } from '@app/contracts';
import { fakeResponder, ownNatsPrefix, type FakeResponder, type RunningService } from '@app/service-testing';
import type { Config } from '../src/config.js';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { answerAsOpenNeighbours, bookingsSuite, call, newOrganization, startBookings } from './support/harness.js';

const UPSTREAM_UNAVAILABLE = { error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

describe('POST /api/v1/bookings when scheduling is unreachable', () => {
  const prefix = ownNatsPrefix('down');
  let neighbours: FakeResponder;
  let bookings: RunningService<Config>;
  const day = futureDay(30);
  beforeAll(async () => {
    neighbours = await fakeResponder(prefix);
    await answerAsOpenNeighbours(neighbours);
    bookings = await startBookings({ NATS_PREFIX: prefix, REQUEST_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await bookings.stop();
    await neighbours.stop();
  });

  it('when scheduling is gone, then create and reschedule are 503 and nothing is written; when it is back, they work', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const existing = await call(bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, interval(day, 8 * 60)));
    expect(existing.status).toBe(201);
    const id = String(existing.body.data.id);

    await neighbours.stop();
    const body = bookingBody(scheduleId, interval(day, 9 * 60));
    const refused = await call(bookings, organizationId, 'POST', '/api/v1/bookings', body, { 'idempotency-key': 'while-down' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UPSTREAM_UNAVAILABLE);
    const moved = await call(bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, interval(day, 10 * 60));
    expect(moved.status).toBe(503);
    const listed = await call(bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.meta?.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ id, start_time: existing.body.data.start_time });

    neighbours = await fakeResponder(prefix);
    await answerAsOpenNeighbours(neighbours);
    // A 503 is not the key's answer: the retry with the same key goes through.
    const retried = await call(bookings, organizationId, 'POST', '/api/v1/bookings', body, { 'idempotency-key': 'while-down' });
    expect(retried.status).toBe(201);
  });
});

describe('POST /api/v1/bookings when scheduling hangs', () => {
  const suite = bookingsSuite({ REQUEST_TIMEOUT_MS: '300' });

  it('when no answer comes in time, then it is a 503, not a hang and not a booking', async () => {
    // Something takes the requests and never answers (a stuck scheduling replica).
    await suite.neighbours.silent(availabilityCheckRequest);
    const organizationId = newOrganization();
    const reply = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(newScheduleId(), interval(futureDay(30), 600)),
    );
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual(UPSTREAM_UNAVAILABLE);
    expect(suite.neighbours.received(availabilityCheckRequest)).toHaveLength(1);
    const listed = await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.meta?.total).toBe(0);
  });
});
