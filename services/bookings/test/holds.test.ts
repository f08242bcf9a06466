import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, tally, type Reply } from './support/harness.js';
import { answerWithRules } from './support/seat-rules.js';

/**
 * Holds: a slot kept while a visitor checks out, taking its seats in the bookings' guard until it is released, used or
 * expires — its expiry is judged at read time, so it blocks nothing the instant expires_at passes.
 */
describe('/api/v1/holds', () => {
  const suite = bookingsSuite();
  const day = futureDay(15);

  const hold = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/holds', body);
  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);
  const holdUrl = (reply: Reply) => `/api/v1/holds/${String(reply.body.data.id)}`;

  /** Moves the hold's expiry to the past, as the passing of its ttl would: no sweeper runs, no event is sent. */
  async function expire(reply: Reply): Promise<void> {
    await suite.bookings.infra.pool.query("UPDATE bookings.holds SET expires_at = now() - interval '1 millisecond' WHERE id = $1", [
      reply.body.data.id,
    ]);
  }

  it('when a hold is placed, then it is active for its ttl and shows every field', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const before = Date.now();
    const created = await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 9 * 60), ttl_seconds: 120 });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(
      ['booking_id', 'created_at', 'end_time', 'expires_at', 'id', 'schedule_id', 'seats', 'start_time', 'status'].sort(),
    );
    expect(created.body.data).toMatchObject({
      schedule_id: scheduleId,
      seats: 1,
      status: 'active',
      booking_id: null,
      ...interval(day, 9 * 60),
    });
    const expiresIn = new Date(String(created.body.data.expires_at)).getTime() - before;
    expect(expiresIn).toBeGreaterThanOrEqual(120_000);
    expect(expiresIn).toBeLessThan(125_000);
    expect((await call(suite.bookings, organizationId, 'GET', holdUrl(created))).body.data).toEqual(created.body.data);
  });

  it('when no ttl is given, then it is 600 s; outside 30..3600 it is a 400 naming ttl_seconds', async () => {
    const organizationId = newOrganization();
    const created = await hold(organizationId, { schedule_id: newScheduleId(), ...interval(day, 9 * 60) });
    const ttl = new Date(String(created.body.data.expires_at)).getTime() - new Date(String(created.body.data.created_at)).getTime();
    expect(ttl).toBe(600_000);
    for (const ttl_seconds of [29, 3601]) {
      const refused = await hold(organizationId, { schedule_id: newScheduleId(), ...interval(day, 9 * 60), ttl_seconds });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^ttl_seconds /);
    }
  });

  it('when a hold is active, then it takes its seats from bookings and holds; released, it frees them at once', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const created = await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 10 * 60) });
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 10 * 60 + 15)))).body.code).toBe('SLOT_TAKEN');
    expect((await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 10 * 60) })).body.code).toBe('SLOT_TAKEN');
    const released = await call(suite.bookings, organizationId, 'DELETE', holdUrl(created));
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ status: 'released' });
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 10 * 60 + 15)))).status).toBe(201);
  });

  it('when a booking holds the slot, then a hold on it is a 409 SLOT_TAKEN', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 11 * 60)))).status).toBe(201);
    expect((await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 11 * 60) })).body.code).toBe('SLOT_TAKEN');
  });

  it('when a hold expires, then it is expired and blocks nothing at once, with nothing swept', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const created = await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 12 * 60) });
    await expire(created);
    expect((await call(suite.bookings, organizationId, 'GET', holdUrl(created))).body.data).toMatchObject({ status: 'expired' });
    expect((await book(organizationId, bookingBody(scheduleId, interval(day, 12 * 60)))).status).toBe(201);
  });

  it('when 30 requests race for a 3-seat slot with holds and bookings, then the seats are never exceeded', async () => {
    await answerWithRules(suite, { seats_per_slot: 3 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? hold(organizationId, { schedule_id: scheduleId, ...interval(day, 13 * 60) })
          : book(organizationId, bookingBody(scheduleId, interval(day, 13 * 60))),
      ),
    );
    expect(tally(replies)).toEqual({ 201: 3, '409 SLOT_TAKEN': 27 });
  });

  it('when 30 holds and bookings race for a one-seat slot, then exactly one gets it', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    // A hold elsewhere on the schedule first: the one-seat statement must hand over to the seat sum, and still be exact.
    await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 8 * 60) });
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? hold(organizationId, { schedule_id: scheduleId, ...interval(day, 14 * 60 + i) })
          : book(organizationId, bookingBody(scheduleId, interval(day, 14 * 60 + i))),
      ),
    );
    expect(tally(replies)).toEqual({ 201: 1, '409 SLOT_TAKEN': 29 });
  });

  it('when another organization asks for a hold, then it is a 404', async () => {
    const created = await hold(newOrganization(), { schedule_id: newScheduleId(), ...interval(day, 9 * 60) });
    const other = await call(suite.bookings, newOrganization(), 'GET', holdUrl(created));
    expect(other.status).toBe(404);
    expect((await call(suite.bookings, newOrganization(), 'GET', '/api/v1/holds/not-a-uuid')).status).toBe(404);
  });

  it('when holds exist, then no booking list shows them', async () => {
    const organizationId = newOrganization();
    await hold(organizationId, { schedule_id: newScheduleId(), ...interval(day, 9 * 60) });
    const listed = await call<unknown[]>(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.data).toEqual([]);
  });
});

describe('POST /api/v1/bookings with hold_id', () => {
  const suite = bookingsSuite();
  const day = futureDay(16);

  const hold = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/holds', body);
  const book = (organizationId: string, body: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);

  it('when a booking names its hold, then it takes the hold’s place and the hold is used, once', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 9 * 60);
    const held = await hold(organizationId, { schedule_id: scheduleId, ...times });
    const booked = await book(organizationId, bookingBody(scheduleId, times, { hold_id: held.body.data.id }));
    expect(booked.status).toBe(201);
    const used = await call(suite.bookings, organizationId, 'GET', `/api/v1/holds/${String(held.body.data.id)}`);
    expect(used.body.data).toMatchObject({ status: 'used', booking_id: booked.body.data.id });
    const again = await book(organizationId, bookingBody(scheduleId, times, { hold_id: held.body.data.id }));
    expect(again.body).toEqual({ code: 'HOLD_INVALID', error: 'Hold is used' });
  });

  it('when 20 bookings race with one hold, then exactly one converts it', async () => {
    await answerWithRules(suite, { seats_per_slot: 10 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 10 * 60);
    const held = await hold(organizationId, { schedule_id: scheduleId, ...times });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => book(organizationId, bookingBody(scheduleId, times, { hold_id: held.body.data.id }))),
    );
    expect(tally(replies)).toEqual({ 201: 1, '409 HOLD_INVALID': 19 });
  });

  it.each<[string, { start?: number; seats?: number; schedule?: boolean }]>([
    ['another start', { start: 11 * 60 + 30 }],
    ['other seats', { seats: 2 }],
    ['another schedule', { schedule: true }],
  ])('when the booking has %s than its hold, then it is a 409 HOLD_INVALID that does not match', async (_case, change) => {
    await answerWithRules(suite, { seats_per_slot: 3 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const held = await hold(organizationId, { schedule_id: scheduleId, ...interval(day, 11 * 60) });
    const body = bookingBody(change.schedule ? newScheduleId() : scheduleId, interval(day, change.start ?? 11 * 60), {
      hold_id: held.body.data.id,
      ...(change.seats ? { seats: change.seats } : {}),
    });
    expect((await book(organizationId, body)).body).toEqual({ code: 'HOLD_INVALID', error: 'Hold does not match the booking' });
  });

  it('when the hold is released or expired, then it is a 409 HOLD_INVALID saying which, before the slot is judged', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const times = interval(day, 12 * 60);
    const released = await hold(organizationId, { schedule_id: scheduleId, ...times });
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/holds/${String(released.body.data.id)}`);
    expect((await book(organizationId, bookingBody(scheduleId, times, { hold_id: released.body.data.id }))).body).toEqual({
      code: 'HOLD_INVALID',
      error: 'Hold is released',
    });
    const expired = await hold(organizationId, { schedule_id: scheduleId, ...times });
    await suite.bookings.infra.pool.query("UPDATE bookings.holds SET expires_at = now() - interval '1 millisecond' WHERE id = $1", [
      expired.body.data.id,
    ]);
    // The slot is taken by now too: the hold's refusal is the one reported.
    expect((await book(organizationId, bookingBody(scheduleId, times))).status).toBe(201);
    expect((await book(organizationId, bookingBody(scheduleId, times, { hold_id: expired.body.data.id }))).body).toEqual({
      code: 'HOLD_INVALID',
      error: 'Hold is expired',
    });
  });
});
