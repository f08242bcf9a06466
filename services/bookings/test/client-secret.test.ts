import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, type Reply } from './support/harness.js';
import { answerWithRules, publishableHeaders } from './support/seat-rules.js';

/**
 * Client secrets and publishable keys (API.md "Keys"): every booking's 201 carries its client_secret, once; a
 * publishable key books and holds only on public schedules, and reaches one booking only with that booking's secret.
 */
describe('client_secret and publishable keys on bookings', () => {
  const suite = bookingsSuite();
  const day = futureDay(17);

  const asKey = (organizationId: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<Reply> =>
    call(suite.bookings, organizationId, method, url, body, publishableHeaders(organizationId));

  async function publicBooking(organizationId: string, minutes = 9 * 60) {
    await answerWithRules(suite, { public_booking: true });
    const created = await asKey(organizationId, 'POST', '/api/v1/bookings', bookingBody(newScheduleId(), interval(day, minutes)));
    expect(created.status).toBe(201);
    return { id: String(created.body.data.id), secret: String(created.body.data.client_secret) };
  }

  it('when a secret key creates a booking, then its 201 alone shows a client_secret', async () => {
    const organizationId = newOrganization();
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(newScheduleId(), interval(day, 9 * 60)),
    );
    expect(created.body.data.client_secret).toMatch(/^cs_[A-Za-z0-9_-]{32,}$/);
    const read = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${String(created.body.data.id)}`);
    expect(read.body.data).not.toHaveProperty('client_secret');
    const listed = await call<Record<string, unknown>[]>(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.data[0]).not.toHaveProperty('client_secret');
    const stored = await suite.bookings.infra.pool.query<{ hash: Buffer }>(
      'SELECT client_secret_hash AS hash FROM bookings.bookings WHERE id = $1',
      [created.body.data.id],
    );
    expect(stored.rows[0]?.hash.length).toBe(32);
    expect(stored.rows[0]?.hash.toString('utf8')).not.toContain('cs_');
  });

  it('when a publishable key books or holds on a schedule that is not public, then it is a 404 SCHEDULE_NOT_FOUND', async () => {
    await answerWithRules(suite, { public_booking: false });
    const organizationId = newOrganization();
    const booked = await asKey(organizationId, 'POST', '/api/v1/bookings', bookingBody(newScheduleId(), interval(day, 9 * 60)));
    expect(booked.body).toEqual({ code: 'SCHEDULE_NOT_FOUND', error: 'Schedule not found or inactive' });
    const held = await asKey(organizationId, 'POST', '/api/v1/holds', { schedule_id: newScheduleId(), ...interval(day, 9 * 60) });
    expect(held.body.code).toBe('SCHEDULE_NOT_FOUND');
  });

  it('when a publishable key reads a booking, then only with that booking’s own client_secret', async () => {
    const organizationId = newOrganization();
    const mine = await publicBooking(organizationId, 9 * 60);
    const other = await publicBooking(organizationId, 10 * 60);
    const url = `/api/v1/bookings/${mine.id}`;
    expect((await asKey(organizationId, 'GET', url)).status).toBe(404);
    expect((await asKey(organizationId, 'GET', `${url}?client_secret=${other.secret}`)).status).toBe(404);
    expect((await asKey(organizationId, 'GET', `${url}?client_secret=cs_${'x'.repeat(32)}`)).status).toBe(404);
    const read = await asKey(organizationId, 'GET', `${url}?client_secret=${mine.secret}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: mine.id });
    // Another organization's key with the right secret still finds nothing.
    const stranger = newOrganization();
    expect((await asKey(stranger, 'GET', `${url}?client_secret=${mine.secret}`)).status).toBe(404);
  });

  it('when a publishable key changes a booking, then only a reschedule with its secret, and a cancel with its secret', async () => {
    const organizationId = newOrganization();
    const mine = await publicBooking(organizationId, 11 * 60);
    const other = await publicBooking(organizationId, 12 * 60);
    const url = `/api/v1/bookings/${mine.id}`;
    const titled = await asKey(organizationId, 'PATCH', `${url}?client_secret=${mine.secret}`, { title: 'Mine now' });
    expect(titled.status).toBe(403);
    expect(titled.body.code).toBe('FORBIDDEN');
    const confirmed = await asKey(organizationId, 'PATCH', `${url}?client_secret=${mine.secret}`, { status: 'CONFIRMED' });
    expect(confirmed.status).toBe(403);
    expect((await asKey(organizationId, 'PATCH', `${url}?client_secret=${other.secret}`, interval(day, 13 * 60))).status).toBe(404);
    const moved = await asKey(organizationId, 'PATCH', `${url}?client_secret=${mine.secret}`, interval(day, 13 * 60));
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject(interval(day, 13 * 60));
    expect((await asKey(organizationId, 'DELETE', url)).status).toBe(404);
    expect((await asKey(organizationId, 'DELETE', `${url}?client_secret=${other.secret}`)).status).toBe(404);
    const cancelled = await asKey(organizationId, 'DELETE', `${url}?client_secret=${mine.secret}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED' });
  });

  it('when a publishable key reads or releases a hold, then only on a public schedule', async () => {
    const organizationId = newOrganization();
    await answerWithRules(suite, { public_booking: true });
    const held = await asKey(organizationId, 'POST', '/api/v1/holds', { schedule_id: newScheduleId(), ...interval(day, 14 * 60) });
    expect(held.status).toBe(201);
    const url = `/api/v1/holds/${String(held.body.data.id)}`;
    expect((await asKey(organizationId, 'GET', url)).status).toBe(200);
    await answerWithRules(suite, { public_booking: false });
    expect((await asKey(organizationId, 'GET', url)).body.code).toBe('SCHEDULE_NOT_FOUND');
    expect((await asKey(organizationId, 'DELETE', url)).body.code).toBe('SCHEDULE_NOT_FOUND');
    // A secret key still sees it.
    expect((await call(suite.bookings, organizationId, 'GET', url)).status).toBe(200);
  });

  it('when a publishable key lists bookings, then the kit refuses it', async () => {
    const reply = await asKey(newOrganization(), 'GET', '/api/v1/bookings');
    expect(reply.status).toBe(403);
  });
});
