import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

const DATABASE_BUSY = { error: 'The database did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

describe('bookings when every database connection is taken', () => {
  // Two connections, and a short wait for one: the test takes both and keeps them.
  const suite = bookingsSuite({ DATABASE_POOL_SIZE: '2', DATABASE_POOL_TIMEOUT_MS: '200' });

  it('when the pool is exhausted, then reads (Prisma) and writes (SQL) are 503 with Retry-After; once freed, they work', async () => {
    const organizationId = newOrganization();
    const body = bookingBody(newScheduleId(), interval(futureDay(40), 9 * 60));
    const held = await Promise.all([suite.bookings.infra.pool.connect(), suite.bookings.infra.pool.connect()]);
    try {
      const listed = await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
      expect(listed.status).toBe(503);
      expect(listed.body).toEqual(DATABASE_BUSY);
      expect(listed.headers['retry-after']).toBe('1');
      const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);
      expect(created.status).toBe(503);
      expect(created.body).toEqual(DATABASE_BUSY);
    } finally {
      for (const client of held) client.release();
    }
    const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body);
    expect(created.status).toBe(201);
    const listed = await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings');
    expect(listed.body.meta).toMatchObject({ total: 1 });
  });
});
