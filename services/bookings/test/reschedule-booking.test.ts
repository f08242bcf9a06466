import { describe, expect, it } from 'vitest';
import { availabilityCheckRequest } from '@app/contracts';
import { bookingBody, bookingsOn, futureDay, interval } from './support/fixtures.js';
import { bookingRoutes, bookingsSuite, call, unavailable } from './support/harness.js';

describe('PATCH /api/v1/bookings/{id} with start_time and end_time (reschedule)', () => {
  const suite = bookingsSuite();
  const day = futureDay(16);
  const { get, patch } = bookingRoutes(suite);
  /** A booking of a fresh organization in a status, each at its own time of the day. */
  const bookingIn = bookingsOn(suite, day);

  it('when start_time and end_time move to a free interval, then the booking moves and the old slot is free', async () => {
    const { organizationId, scheduleId, id } = await bookingIn();
    const before = (await get(organizationId, id)).body.data;
    const target = interval(day, 20 * 60, 45);
    const reply = await patch(organizationId, id, target);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id, ...target, status: 'PENDING' });
    const old = { start_time: String(before.start_time), end_time: String(before.end_time) };
    const rebooked = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, old));
    expect(rebooked.status).toBe(201);
  });

  it('when the new interval overlaps only its own old interval, then it moves', async () => {
    const { organizationId, id } = await bookingIn('CONFIRMED');
    const current = (await get(organizationId, id)).body.data;
    const shifted = new Date(Date.parse(String(current.start_time)) + 15 * 60_000);
    const reply = await patch(organizationId, id, {
      start_time: shifted.toISOString(),
      end_time: new Date(shifted.getTime() + 30 * 60_000).toISOString(),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe('CONFIRMED');
  });

  it('when the new interval overlaps another live booking, then it is a 409 SLOT_TAKEN and nothing moves', async () => {
    const { organizationId, scheduleId, id } = await bookingIn();
    const taken = interval(day, 21 * 60);
    expect((await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, taken))).status).toBe(201);
    const before = (await get(organizationId, id)).body.data;
    const reply = await patch(organizationId, id, interval(day, 21 * 60 + 15));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: 'This time slot is already booked', code: 'SLOT_TAKEN' });
    expect((await get(organizationId, id)).body.data).toEqual(before);
  });

  it('when scheduling says the new interval is unavailable, then it is a 409 SLOT_UNAVAILABLE and nothing moves', async () => {
    const { organizationId, scheduleId, id } = await bookingIn();
    const before = (await get(organizationId, id)).body.data;
    suite.neighbours.forget();
    await suite.neighbours.answer(availabilityCheckRequest, () => unavailable('minimum_notice'));
    const target = interval(futureDay(-1), 10 * 60);
    const reply = await patch(organizationId, id, target);
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: "The requested time is within the schedule's minimum notice", code: 'SLOT_UNAVAILABLE' });
    expect((await get(organizationId, id)).body.data).toEqual(before);
    expect(suite.neighbours.received(availabilityCheckRequest).map((r) => r.request)).toEqual([
      { organization_id: organizationId, schedule_id: scheduleId, ...target },
    ]);
  });

  it.each(['CANCELLED', 'COMPLETED'] as const)('when the booking is %s, then a reschedule is a 400', async (status) => {
    const { organizationId, id } = await bookingIn(status);
    const reply = await patch(organizationId, id, interval(day, 22 * 60));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: `Cannot reschedule a ${status} booking`, code: 'INVALID_TRANSITION' });
  });

  it('when a reschedule and a status move come together, then both apply', async () => {
    const { organizationId, id } = await bookingIn();
    const target = interval(day, 23 * 60);
    const reply = await patch(organizationId, id, { ...target, status: 'CONFIRMED' });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ ...target, status: 'CONFIRMED' });
  });
});
