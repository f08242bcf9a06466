import { describe, expect, it } from 'vitest';
import { bookingBody, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, type Reply } from './support/harness.js';
import { answerWithRules } from './support/seat-rules.js';

type Series = { id: string; bookings: Record<string, unknown>[] };

/**
 * Booking series: occurrences at the first one's local wall-clock time in `timezone` (across DST changes, on real
 * transition dates of both hemispheres), all created or none, every refused occurrence listed.
 */
describe('/api/v1/booking-series', () => {
  const suite = bookingsSuite();

  const create = (organizationId: string, body: unknown): Promise<Reply<Series>> =>
    call<Series>(suite.bookings, organizationId, 'POST', '/api/v1/booking-series', body);

  function seriesBody(scheduleId: string, start: string, end: string, timezone: string, recurrence: Record<string, unknown>) {
    return bookingBody(scheduleId, { start_time: start, end_time: end }, { timezone, recurrence });
  }

  it('when a weekly series crosses Berlin’s change to summer time, then each occurrence starts at 09:00 local', async () => {
    const organizationId = newOrganization();
    // 2027-03-28: Europe/Berlin goes from UTC+1 to UTC+2.
    const reply = await create(
      organizationId,
      seriesBody(newScheduleId(), '2027-03-15T09:00:00+01:00', '2027-03-15T09:45:00+01:00', 'Europe/Berlin', {
        frequency: 'weekly',
        count: 4,
      }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data.bookings.map((b) => [b.start_time, b.end_time])).toEqual([
      ['2027-03-15T08:00:00.000Z', '2027-03-15T08:45:00.000Z'],
      ['2027-03-22T08:00:00.000Z', '2027-03-22T08:45:00.000Z'],
      ['2027-03-29T07:00:00.000Z', '2027-03-29T07:45:00.000Z'],
      ['2027-04-05T07:00:00.000Z', '2027-04-05T07:45:00.000Z'],
    ]);
    for (const booking of reply.body.data.bookings) {
      expect(booking).toMatchObject({ series_id: reply.body.data.id, timezone: 'Europe/Berlin', status: 'PENDING' });
      expect(booking.client_secret).toMatch(/^cs_/);
    }
  });

  it('when a daily series every 2 days crosses Sydney’s end of summer time, then each starts at 09:00 local', async () => {
    const organizationId = newOrganization();
    // 2027-04-04: Australia/Sydney goes from UTC+11 to UTC+10.
    const reply = await create(
      organizationId,
      seriesBody(newScheduleId(), '2027-04-01T09:00:00+11:00', '2027-04-01T10:00:00+11:00', 'Australia/Sydney', {
        frequency: 'daily',
        interval: 2,
        count: 3,
      }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data.bookings.map((b) => b.start_time)).toEqual([
      '2027-03-31T22:00:00.000Z',
      '2027-04-02T22:00:00.000Z',
      '2027-04-04T23:00:00.000Z',
    ]);
  });

  it('when occurrences are refused, then none is created and every refusal is listed', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const taken = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(scheduleId, { start_time: '2027-06-09T10:15:00Z', end_time: '2027-06-09T10:45:00Z' }),
    );
    expect(taken.status).toBe(201);
    expect(
      (
        await call(
          suite.bookings,
          organizationId,
          'POST',
          '/api/v1/bookings',
          bookingBody(scheduleId, { start_time: '2027-06-11T10:00:00Z', end_time: '2027-06-11T10:30:00Z' }),
        )
      ).status,
    ).toBe(201);
    const reply = await create(
      organizationId,
      seriesBody(scheduleId, '2027-06-07T10:00:00Z', '2027-06-07T10:30:00Z', 'UTC', { frequency: 'daily', count: 5 }),
    );
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      code: 'SLOT_TAKEN',
      error: 'This time slot is already booked',
      details: [
        { index: 2, start_time: '2027-06-09T10:00:00.000Z', code: 'SLOT_TAKEN' },
        { index: 4, start_time: '2027-06-11T10:00:00.000Z', code: 'SLOT_TAKEN' },
      ],
    });
    const listed = await call<unknown[]>(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.data).toHaveLength(2);
  });

  it('when an occurrence is past the day limit, then the series is refused with its code', async () => {
    await answerWithRules(suite, { max_bookings_per_day: 1 });
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(scheduleId, { start_time: '2027-07-02T15:00:00Z', end_time: '2027-07-02T15:30:00Z' }),
    );
    const reply = await create(
      organizationId,
      seriesBody(scheduleId, '2027-07-01T10:00:00Z', '2027-07-01T10:30:00Z', 'UTC', { frequency: 'daily', count: 3 }),
    );
    expect(reply.body).toMatchObject({ code: 'DAY_LIMIT_REACHED', details: [{ index: 1, code: 'DAY_LIMIT_REACHED' }] });
  });

  it('when a series is read and deleted, then GET shows it and DELETE cancels what has not started', async () => {
    const organizationId = newOrganization();
    const created = await create(
      organizationId,
      seriesBody(newScheduleId(), '2027-09-01T10:00:00Z', '2027-09-01T10:30:00Z', 'UTC', { frequency: 'weekly', count: 3 }),
    );
    const url = `/api/v1/booking-series/${created.body.data.id}`;
    const read = await call<Series>(suite.bookings, organizationId, 'GET', url);
    expect(read.status).toBe(200);
    expect(read.body.data.bookings.map((b) => b.id)).toEqual(created.body.data.bookings.map((b) => b.id));
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/bookings/${String(created.body.data.bookings[0]?.id)}`);
    const removed = await call(suite.bookings, organizationId, 'DELETE', url);
    expect(removed.body.data).toEqual({ id: created.body.data.id, cancelled: 2 });
    const after = await call<Series>(suite.bookings, organizationId, 'GET', url);
    expect(after.body.data.bookings.map((b) => b.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect((await call(suite.bookings, newOrganization(), 'GET', url)).status).toBe(404);
  });

  it('when timezone is missing or the count is out of range, then it is a 400 naming it', async () => {
    const organizationId = newOrganization();
    const noZone = bookingBody(
      newScheduleId(),
      { start_time: '2027-09-01T10:00:00Z', end_time: '2027-09-01T10:30:00Z' },
      { recurrence: { frequency: 'daily', count: 2 } },
    );
    expect((await create(organizationId, noZone)).body.error).toBe('timezone is required');
    const tooMany = seriesBody(newScheduleId(), '2027-09-01T10:00:00Z', '2027-09-01T10:30:00Z', 'UTC', { frequency: 'daily', count: 53 });
    expect((await create(organizationId, tooMany)).body.error).toMatch(/^recurrence\.count /);
  });
});
