import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startBareStack } from '../../bench/ceiling/bare-stack.mjs';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { freePorts } from '../support/free-ports.js';

/**
 * `npm run bench` measures every scenario against a bare service built from the services' own statements (built
 * `dist`). Nothing else runs that service, so a renamed module or a changed signature would only show when someone
 * next benchmarks: this runs each of its routes once, on the migrated database of a real stack.
 */
describe('the bench ceiling’s bare service', () => {
  let stack: E2eStack;
  let bare: { url: string; frameworkUrl: string; stop(): Promise<void> };
  let scheduleId: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Ceiling Org' },
    });
    const { id: organizationId, api_key: key } = (created.body as { data: { id: string; api_key: string } }).data;
    const schedule = await stack.call('POST', '/api/v1/schedules', { key, body: { name: 'Ceiling', timezone: 'UTC', slot_duration: 30 } });
    scheduleId = (schedule.body as { data: { id: string } }).data.id;
    const port = await freePorts(3); // the bare proxy's, the service's and the framework proxy's
    bare = await startBareStack({ databaseUrl: inject('databaseUrl'), natsUrl: inject('natsUrl'), organizationId, port });
  });
  afterAll(async () => {
    await bare?.stop();
    await stack?.stop();
  });

  it.each([
    ['GET', '/api/v1/events?include_counts=true&limit=50', 200],
    ['GET', '/api/v1/products?search=mug&min_price=10&limit=50', 200],
  ])('when %s %s is asked, then it answers %i with data', async (method, path, status) => {
    const response = await fetch(`${bare.url}${path}`, { method });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('when the framework proxy is asked, then it forwards to the bare service as the bare proxy does', async () => {
    const path = '/api/v1/events?include_counts=true&limit=50';
    const [direct, framework] = await Promise.all([fetch(`${bare.url}${path}`), fetch(`${bare.frameworkUrl}${path}`)]);
    expect(framework.status).toBe(200);
    expect(await framework.json()).toEqual(await direct.json());
  });

  it('when slots and a booking are asked, then it answers them as the services do, and the booking reaches the projection', async () => {
    const slots = await fetch(`${bare.url}/api/bookings/slots?scheduleId=${scheduleId}&startDate=2030-01-07&endDate=2030-01-07`);
    expect(slots.status).toBe(200);
    expect(await slots.json()).toMatchObject({ schedule: { id: scheduleId }, days: expect.any(Array) });
    const booking = await fetch(`${bare.url}/api/v1/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule_id: scheduleId,
        start_time: '2030-01-07T09:00:00Z',
        end_time: '2030-01-07T09:30:00Z',
        attendee: { name: 'Ceiling', email: 'ceiling@example.com' },
      }),
    });
    expect(booking.status, await booking.clone().text()).toBe(201);
    const { data } = (await booking.json()) as { data: { id: string } };
    expect(data).toMatchObject({ status: 'PENDING', start_time: '2030-01-07T09:00:00.000Z' });
    // The fair ceiling does all a booking's necessary work: published by its relay, applied by its projection.
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      const projected = async () =>
        (await db.query('SELECT status FROM bench_ceiling.booking_intervals WHERE booking_id = $1::uuid', [data.id])).rows;
      await expect.poll(projected, { timeout: 5000, interval: 50 }).toEqual([{ status: 'PENDING' }]);
      const { rows } = await db.query('SELECT published_at IS NOT NULL AS published FROM bench_ceiling.outbox');
      expect(rows).toEqual([{ published: true }]);
    } finally {
      await db.end();
    }
  });
});
