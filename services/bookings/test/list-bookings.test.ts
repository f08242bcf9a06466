import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

interface Listed {
  id: string;
  start_time: string;
  attendee_email: string;
}

describe('GET /api/v1/bookings', () => {
  const suite = bookingsSuite();
  const organizationId = newOrganization();
  const day = futureDay(12);
  const nextDay = new Date(day.getTime() + 86_400_000);
  let scheduleA: string;
  let scheduleB: string;
  let eventType: string;
  const ids: Record<string, string> = {};

  const list = async (query = '') => {
    const reply = await call<Listed[]>(suite.bookings, organizationId, 'GET', `/api/v1/bookings${query}`);
    expect(reply.status).toBe(200);
    return reply;
  };
  const names = (data: Listed[]) => data.map((b) => Object.keys(ids).find((name) => ids[name] === b.id));

  beforeAll(async () => {
    scheduleA = newScheduleId();
    scheduleB = newScheduleId();
    eventType = randomUUID();
    // Created out of order on purpose: the list sorts by start_time.
    const plan: [string, string, Date, number, Record<string, unknown>][] = [
      ['late', scheduleA, nextDay, 10 * 60, { attendee: { name: 'Late', email: 'late@example.com' } }],
      ['early', scheduleA, day, 8 * 60, { event_type_id: eventType, attendee: { name: 'Early', email: 'EARLY.bird@Example.com' } }],
      ['midday', scheduleB, day, 12 * 60, { attendee: { name: 'Mid', email: 'mid_day@example.org' } }],
      ['offer', scheduleB, day, 13 * 60, { attendee: { name: 'Offer', email: 'fifty.off@example.org' } }],
    ];
    for (const [name, schedule, date, minutes, extra] of plan) {
      const reply = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', {
        ...bookingBody(schedule, interval(date, minutes)),
        ...extra,
      });
      ids[name] = String(reply.body.data.id);
    }
    await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${ids.midday}`, { status: 'CONFIRMED' });
  });

  it('when listing without filters, then all bookings come sorted by start_time with meta', async () => {
    const reply = await list();
    expect(names(reply.body.data)).toEqual(['early', 'midday', 'offer', 'late']);
    expect(reply.body.meta).toEqual({ total: 4, limit: 50, offset: 0, hasMore: false, next_cursor: null });
    expect(Object.keys(reply.body.data[0] ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'schedule_id',
        'start_time',
        'end_time',
        'status',
        'title',
        'attendee_name',
        'attendee_email',
        'created_at',
      ]),
    );
  });

  it('when paginating, then limit and offset cut the sorted list and meta tells what is left', async () => {
    const first = await list('?limit=3');
    expect(names(first.body.data)).toEqual(['early', 'midday', 'offer']);
    expect(first.body.meta).toEqual({ total: 4, limit: 3, offset: 0, hasMore: true, next_cursor: expect.any(String) });
    const second = await list('?limit=3&offset=3');
    expect(names(second.body.data)).toEqual(['late']);
    expect(second.body.meta).toEqual({ total: 4, limit: 3, offset: 3, hasMore: false, next_cursor: null });
  });

  it.each([
    ['schedule_id', () => `?schedule_id=${scheduleB}`, ['midday', 'offer']],
    ['event_type_id', () => `?event_type_id=${eventType}`, ['early']],
    ['status', () => '?status=CONFIRMED', ['midday']],
    ['status with no match', () => '?status=NO_SHOW', []],
    ['start_date as a date', () => `?start_date=${nextDay.toISOString().slice(0, 10)}`, ['late']],
    ['end_date as a date (whole day included)', () => `?end_date=${day.toISOString().slice(0, 10)}`, ['early', 'midday', 'offer']],
    ['start_date as an instant', () => `?start_date=${encodeURIComponent(interval(day, 12 * 60).start_time)}`, ['midday', 'offer', 'late']],
    ['end_date as an instant (inclusive)', () => `?end_date=${encodeURIComponent(interval(day, 12 * 60).start_time)}`, ['early', 'midday']],
    ['attendee_email, case-insensitive substring', () => '?attendee_email=early.BIRD', ['early']],
    ['attendee_email with a literal _', () => '?attendee_email=mid_', ['midday']],
    ['attendee_email, a plain substring', () => '?attendee_email=off@', ['offer']],
    ['attendee_email where % must not be a wildcard', () => `?attendee_email=${encodeURIComponent('fifty%off')}`, []],
    ['attendee_email where _ must not be a wildcard', () => '?attendee_email=e_rly', []],
    ['upcoming', () => '?upcoming=true', ['early', 'midday', 'offer', 'late']],
    [
      'several filters together',
      () => `?schedule_id=${scheduleA}&start_date=${day.toISOString().slice(0, 10)}&end_date=${day.toISOString().slice(0, 10)}`,
      ['early'],
    ],
  ])('when filtering by %s, then only the matching bookings are listed', async (_case, query, expected) => {
    const reply = await list(query());
    expect(names(reply.body.data)).toEqual(expected);
    expect(reply.body.meta?.total).toBe(expected.length);
  });

  it('when a booking is in the past, then upcoming=true leaves it out', async () => {
    await suite.bookings.infra.pool.query(
      `UPDATE bookings SET start_time = start_time - interval '60 days', end_time = end_time - interval '60 days' WHERE id = $1`,
      [ids.late],
    );
    try {
      expect(names((await list('?upcoming=true')).body.data)).toEqual(['early', 'midday', 'offer']);
      expect(names((await list('?upcoming=false')).body.data)).toEqual(['late', 'early', 'midday', 'offer']);
    } finally {
      await suite.bookings.infra.pool.query(
        `UPDATE bookings SET start_time = start_time + interval '60 days', end_time = end_time + interval '60 days' WHERE id = $1`,
        [ids.late],
      );
    }
  });
});
