import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { availabilityCheckRequest } from '@app/contracts';
import { startTestService } from '@app/service-kit/testing';
import { configSchema as schedulingConfigSchema } from '../../scheduling/src/config.js';
import { service as schedulingService } from '../../scheduling/src/service.js';
import { bookingBody, createSchedule, futureDay, interval } from './support/fixtures.js';
import { call, newOrganization, startBookings, startStack, type Stack } from './support/stack.js';

const UPSTREAM_UNAVAILABLE = { error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

describe('POST /api/v1/bookings when scheduling is unreachable', () => {
  // A NATS prefix of this file's own: no other test file's scheduling service can answer for the stopped one.
  const env = { NATS_PREFIX: `${inject('natsPrefix')}_down`, REQUEST_TIMEOUT_MS: '500' };
  let stack: Stack;
  const day = futureDay(30);
  beforeAll(async () => {
    stack = await startStack(env);
  });
  afterAll(() => stack.stop());

  it('when the scheduling service stops, then create and reschedule are 503 and nothing is written; when it is back, they work', async () => {
    const organizationId = newOrganization();
    const scheduleId = await createSchedule(stack, organizationId);
    const existing = await call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, interval(day, 8 * 60)));
    expect(existing.status).toBe(201);
    const id = String(existing.body.data.id);

    await stack.scheduling.stop();
    const body = bookingBody(scheduleId, interval(day, 9 * 60));
    const refused = await call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', body, { 'idempotency-key': 'while-down' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UPSTREAM_UNAVAILABLE);
    const moved = await call(stack.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, interval(day, 10 * 60));
    expect(moved.status).toBe(503);
    const listed = await call(stack.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.meta?.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ id, start_time: existing.body.data.start_time });

    stack.scheduling = await startTestService(schedulingService, schedulingConfigSchema, env);
    // A 503 is not the key's answer: the retry with the same key goes through.
    const retried = await call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', body, { 'idempotency-key': 'while-down' });
    expect(retried.status).toBe(201);
  });
});

describe('POST /api/v1/bookings when scheduling hangs', () => {
  const prefix = `${inject('natsPrefix')}_hung`;
  let bookings: Awaited<ReturnType<typeof startBookings>>;
  beforeAll(async () => {
    bookings = await startBookings({ NATS_PREFIX: prefix, REQUEST_TIMEOUT_MS: '300' });
    // Something takes the requests and never answers (a stuck scheduling replica).
    bookings.infra.bus.nc.subscribe(bookings.infra.bus.subject(availabilityCheckRequest.subject), { callback: () => undefined });
    await bookings.infra.bus.nc.flush();
  });
  afterAll(() => bookings.stop());

  it('when no answer comes in time, then it is a 503, not a hang and not a booking', async () => {
    const organizationId = newOrganization();
    const reply = await call(bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(randomUUID(), interval(futureDay(30), 600)));
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual(UPSTREAM_UNAVAILABLE);
    const listed = await call(bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.meta?.total).toBe(0);
  });
});
