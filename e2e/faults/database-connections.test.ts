import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';

describe('database connections dropped under the services', () => {
  const stack = startedForTests(startE2eStack, { timeout: 120_000 });

  it('when every connection is terminated, then the services recover without a restart', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const pids = stack.children.map((c) => c.child.pid);
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    const { rows } = await admin.query<{ terminated: number }>(
      'SELECT count(*)::int AS terminated FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) t',
    );
    await admin.end();
    expect(rows[0]?.terminated).toBeGreaterThan(0);

    // A request may meet a connection the pool has not yet noticed is gone; within seconds all are replaced.
    const deadline = Date.now() + 15_000;
    let healthy = 0;
    for (let n = 0; healthy < 20 && Date.now() < deadline; n += 1) {
      const [list, booking] = await Promise.all([
        stack.call('GET', '/api/v1/products', { key }),
        stack.call('POST', '/api/v1/bookings', {
          key,
          body: { schedule_id: scheduleId, ...quarterHour(n, 2), attendee: { name: 'Bo', email: 'bo@example.com' } },
        }),
      ]);
      healthy = list.status === 200 && booking.status === 201 ? healthy + 1 : 0;
    }
    expect(healthy).toBe(20);
    expect(stack.children.map((c) => c.child.pid)).toEqual(pids);
    expect(stack.children.every((c) => c.child.exitCode === null)).toBe(true);
  });
});
