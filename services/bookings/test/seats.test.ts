import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, tally, type Reply } from './support/harness.js';
import { answerWithRules } from './support/seat-rules.js';

/**
 * Seats per slot: the seats of live bookings (and active holds) overlapping any instant never exceed seats_per_slot,
 * judged by the database under concurrency. Scheduling is faked: it says every interval is available with the rules
 * a test gives.
 */
describe('POST /api/v1/bookings (seats)', () => {
  const suite = bookingsSuite();
  const day = futureDay(12);

  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);
  const at = (minutes: number, duration = 30) => interval(day, minutes, duration);

  it('when no seats are given, then the booking takes one and every record shows it', async () => {
    await answerWithRules(suite, { seats_per_slot: 3 });
    const organizationId = newOrganization();
    const created = await book(organizationId, bookingBody(newScheduleId(), at(9 * 60)));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ seats: 1, series_id: null });
    const read = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${String(created.body.data.id)}`);
    expect(read.body.data).toMatchObject({ seats: 1 });
    const listed = await call<Record<string, unknown>[]>(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.data[0]).toMatchObject({ seats: 1 });
  });

  it.each([[0], [1001], [2.5], ['2']])('when seats is %s, then it is a 400 naming seats', async (seats) => {
    const reply = await book(newOrganization(), bookingBody(newScheduleId(), at(9 * 60), { seats }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('VALIDATION_ERROR');
    expect(reply.body.error).toMatch(/^seats /);
  });

  it('when seats exceed the schedule’s seats_per_slot, then it is a 400 naming seats', async () => {
    await answerWithRules(suite, { seats_per_slot: 4 });
    const reply = await book(newOrganization(), bookingBody(newScheduleId(), at(9 * 60), { seats: 5 }));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'seats must be an integer from 1 to 4' });
  });

  it('when bookings are staggered, then the rule holds at every instant, not per identical interval', async () => {
    await answerWithRules(suite, { seats_per_slot: 2 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60, 60)))).status).toBe(201); // 9:00–10:00
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60 + 30, 60)))).status).toBe(201); // 9:30–10:30
    // 9:45–10:00 meets both at 9:45: three seats.
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60 + 45, 15)))).body.code).toBe('SLOT_TAKEN');
    // 8:30–9:15 overlaps only the first (two seats at 9:00–9:15); 10:00–10:30 only the second (the first has ended).
    expect((await book(organizationId, bookingBody(scheduleId, at(8 * 60 + 30, 45)))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, at(10 * 60, 30)))).status).toBe(201);
    // 9:10–9:20: the first and 8:30–9:15 already take both seats at 9:10.
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60 + 10, 10)))).body.code).toBe('SLOT_TAKEN');
    // 8:00–8:30 touches 8:30 only: free.
    expect((await book(organizationId, bookingBody(scheduleId, at(8 * 60, 30), { seats: 2 }))).status).toBe(201);
  });

  it('when a booking takes several seats, then they count as several', async () => {
    await answerWithRules(suite, { seats_per_slot: 5 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60), { seats: 3 }))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60), { seats: 3 }))).body.code).toBe('SLOT_TAKEN');
    const last = await book(organizationId, bookingBody(scheduleId, at(9 * 60), { seats: 2 }));
    expect(last.status).toBe(201);
    expect(last.body.data).toMatchObject({ seats: 2 });
  });

  it('when 30 requests race for the last seat, then exactly one gets it', async () => {
    await answerWithRules(suite, { seats_per_slot: 5 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60, 60), { seats: 4 }))).status).toBe(201);
    // Staggered contenders: each overlaps the 4-seat booking at some instant.
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => book(organizationId, bookingBody(scheduleId, at(9 * 60 + i, 30)))),
    );
    expect(tally(replies)).toEqual({ 201: 1, '409 SLOT_TAKEN': 29 });
  });

  it('when 30 requests race on a 50-seat slot with 48 taken, then exactly two get a seat', async () => {
    await answerWithRules(suite, { seats_per_slot: 50 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60), { seats: 48 }))).status).toBe(201);
    const replies = await Promise.all(Array.from({ length: 30 }, () => book(organizationId, bookingBody(scheduleId, at(9 * 60)))));
    expect(tally(replies)).toEqual({ 201: 2, '409 SLOT_TAKEN': 28 });
  });

  it('when a schedule goes from many seats to one, then its overlapping bookings still block a one-seat booking', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    await answerWithRules(suite, { seats_per_slot: 3 });
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60)))).status).toBe(201);
    await answerWithRules(suite, { seats_per_slot: 1 });
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60 + 15)))).body.code).toBe('SLOT_TAKEN');
    expect((await book(organizationId, bookingBody(scheduleId, at(10 * 60)))).status).toBe(201);
  });

  it('when a booking is rescheduled onto a full instant, then it is a 409 SLOT_TAKEN', async () => {
    await answerWithRules(suite, { seats_per_slot: 2 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, at(9 * 60), { seats: 2 }))).status).toBe(201);
    const moved = await book(organizationId, bookingBody(scheduleId, at(11 * 60)));
    const patch = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${String(moved.body.data.id)}`, at(9 * 60 + 15));
    expect(patch.body.code).toBe('SLOT_TAKEN');
    const free = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${String(moved.body.data.id)}`, at(10 * 60));
    expect(free.status).toBe(200);
  });
});

describe('POST /api/v1/bookings (day limit and horizon)', () => {
  const suite = bookingsSuite();
  const day = futureDay(13);

  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);

  it('when 20 requests race for a day that has room for 3, then exactly 3 are booked', async () => {
    await answerWithRules(suite, { max_bookings_per_day: 3 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(organizationId, bookingBody(scheduleId, interval(day, i * 30)))),
    );
    expect(tally(replies)).toEqual({ 201: 3, '409 DAY_LIMIT_REACHED': 17 });
    expect(replies.find((reply) => reply.status === 409)?.body.error).toBe("The schedule's daily booking limit is reached on that day");
    // The next day is a day of its own.
    expect((await book(organizationId, bookingBody(scheduleId, interval(futureDay(14), 9 * 60)))).status).toBe(201);
  });

  it('when the day is full of bookings and a hold, then it is refused; a cancellation makes room', async () => {
    await answerWithRules(suite, { max_bookings_per_day: 2 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const first = await book(organizationId, bookingBody(scheduleId, interval(day, 9 * 60)));
    const hold = await call(suite.bookings, organizationId, 'POST', '/api/v1/holds', {
      schedule_id: scheduleId,
      ...interval(day, 10 * 60),
    });
    expect(hold.status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 11 * 60)))).body.code).toBe('DAY_LIMIT_REACHED');
    const heldToo = await call(suite.bookings, organizationId, 'POST', '/api/v1/holds', {
      schedule_id: scheduleId,
      ...interval(day, 12 * 60),
    });
    expect(heldToo.body.code).toBe('DAY_LIMIT_REACHED');
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/bookings/${String(first.body.data.id)}`);
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 11 * 60)))).status).toBe(201);
  });

  it('when the start is beyond the horizon, then it is a 409 SLOT_UNAVAILABLE saying so', async () => {
    await answerWithRules(suite, { available: false, reason: 'beyond_horizon' });
    const reply = await book(newOrganization(), bookingBody(newScheduleId(), interval(day, 9 * 60)));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ code: 'SLOT_UNAVAILABLE', error: "The requested time is beyond the schedule's booking horizon" });
  });
});
