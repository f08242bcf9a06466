import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, tally, type Reply } from './support/harness.js';

const SLOT_TAKEN = { error: 'This time slot is already booked', code: 'SLOT_TAKEN' };

/**
 * No double booking: the exclusion constraint on live (PENDING/CONFIRMED) bookings of a schedule. Scheduling (faked)
 * says every interval is available: overlap is the bookings service's own check, under any concurrency.
 */
describe('POST /api/v1/bookings (double booking)', () => {
  const suite = bookingsSuite();
  const day = futureDay(11);

  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);

  function arrange() {
    return { organizationId: newOrganization(), scheduleId: newScheduleId() };
  }

  it('when a PENDING booking holds the interval, then the same interval is a 409 SLOT_TAKEN', async () => {
    const { organizationId, scheduleId } = arrange();
    const times = interval(day, 8 * 60);
    expect((await book(organizationId, bookingBody(scheduleId, times))).status).toBe(201);
    const second = await book(organizationId, bookingBody(scheduleId, times));
    expect(second.status).toBe(409);
    expect(second.body).toEqual(SLOT_TAKEN);
  });

  it('when a CONFIRMED booking holds the interval, then an overlapping one is a 409 SLOT_TAKEN', async () => {
    const { organizationId, scheduleId } = arrange();
    const first = await book(organizationId, bookingBody(scheduleId, interval(day, 8 * 60, 60)));
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${String(first.body.data.id)}`, { status: 'CONFIRMED' });
    const second = await book(organizationId, bookingBody(scheduleId, interval(day, 8 * 60 + 30, 60)));
    expect(second.body).toEqual(SLOT_TAKEN);
  });

  it.each([
    ['starts inside it', 9 * 60 + 30, 60],
    ['ends inside it', 8 * 60 + 30, 60],
    ['lies inside it', 9 * 60 + 15, 15],
    ['contains it', 8 * 60, 240],
  ])('when a different interval %s, then it is a 409 SLOT_TAKEN', async (_case, start, duration) => {
    const { organizationId, scheduleId } = arrange();
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 9 * 60, 60)))).status).toBe(201);
    const reply = await book(organizationId, bookingBody(scheduleId, interval(day, start, duration)));
    expect(reply.body).toEqual(SLOT_TAKEN);
  });

  it('when intervals only touch, then both ends are free', async () => {
    const { organizationId, scheduleId } = arrange();
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 9 * 60, 60)))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 10 * 60, 30)))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 8 * 60 + 30, 30)))).status).toBe(201);
  });

  it('when the booking of a slot is cancelled, then the slot can be booked again', async () => {
    const { organizationId, scheduleId } = arrange();
    const times = interval(day, 11 * 60);
    const first = await book(organizationId, bookingBody(scheduleId, times));
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/bookings/${String(first.body.data.id)}`);
    const again = await book(organizationId, bookingBody(scheduleId, times));
    expect(again.status).toBe(201);
  });

  it('when another schedule has a booking at that time, then this schedule is still free', async () => {
    const { organizationId, scheduleId } = arrange();
    const other = newScheduleId();
    const times = interval(day, 12 * 60);
    expect((await book(organizationId, bookingBody(other, times))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, times))).status).toBe(201);
  });

  it('when 40 requests race for one slot, then exactly one is created and 39 are 409 SLOT_TAKEN', async () => {
    const { organizationId, scheduleId } = arrange();
    const times = interval(day, 14 * 60);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        book(organizationId, bookingBody(scheduleId, times, { attendee: { name: `A${i}`, email: `a${i}@example.com` } })),
      ),
    );
    expect(tally(replies)).toEqual({ '201': 1, '409 SLOT_TAKEN': 39 });
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body).toEqual(SLOT_TAKEN);
    const listed = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings?schedule_id=${scheduleId}`);
    expect(listed.body.meta?.total).toBe(1);
  });

  it('when 20 different but overlapping intervals race, then exactly one is created', async () => {
    const { organizationId, scheduleId } = arrange();
    // Every interval contains 16:00: [15:41+i, 16:11+i) for i = 0..19.
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(organizationId, bookingBody(scheduleId, interval(day, 15 * 60 + 41 + i)))),
    );
    expect(tally(replies)).toEqual({ '201': 1, '409 SLOT_TAKEN': 19 });
  });
});
