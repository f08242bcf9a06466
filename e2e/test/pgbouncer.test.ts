import { describe, expect, inject, it } from 'vitest';
import { dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { preparedForTests, startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';
import { startPgBouncer } from '../support/pgbouncer.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The PgBouncer option of compose and Kubernetes (transaction pooling): the seven services through it, as deployed. */
describe('the system behind PgBouncer in transaction pooling mode', () => {
  const pgbouncer = startedForTests(() => startPgBouncer(inject('databaseUrl')));
  // PgBouncer 1.18 (Debian 12) cannot follow named prepared statements across server connections.
  const stack = startedForTests(
    () => startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000', DATABASE_NAMED_STATEMENTS: 'false' }, {}, { databaseHost: pgbouncer.host }),
    { timeout: 120_000 },
  );
  const organization = preparedForTests(() => createOrganization(stack, 'Pooled'));

  it('when 20 bookings of one slot arrive at once, then exactly one is created: the database guards hold through the pooler', async () => {
    const { key } = organization;
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key,
      body: { name: 'Pooled desk', timezone: 'UTC', availability: WEEK.map((day) => ({ day, start: '00:00', end: '23:59' })) },
    });
    const scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    const body = {
      schedule_id: scheduleId,
      start_time: start.toISOString(),
      end_time: new Date(start.getTime() + 30 * 60_000).toISOString(),
      attendee: { name: 'Ada', email: 'ada@example.com' },
    };

    const replies = await Promise.all(Array.from({ length: 20 }, () => stack.call('POST', '/api/v1/bookings', { key, body })));

    expect(replies.map((reply) => reply.status).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
    const listed = await stack.call('GET', '/api/v1/bookings', { key });
    expect(listed.body).toMatchObject({ meta: { total: 1 } });
  });

  it('when the services connect, then each logs in to PgBouncer as its own role', () => {
    for (const role of ['gateway_service', 'bookings_service', 'scheduling_service', 'events_service', 'catalog_service']) {
      expect(pgbouncer.log(), role).toMatch(new RegExp(`login attempt: db=\\S+ user=${role}`));
    }
  });
});
