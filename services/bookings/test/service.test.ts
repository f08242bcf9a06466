import { describe, expect, it } from 'vitest';
import { describeServiceBasics, startedForTests } from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { startBookings } from './support/harness.js';

describe('bookings service', () => {
  const running = startedForTests(startBookings);

  // Its OpenAPI document is checked route by route below.
  describeServiceBasics({ running: () => running, schema: SCHEMA, prismaSchema: new URL('../prisma/schema.prisma', import.meta.url) });

  it('when raw SQL runs on the pool (outbox, idempotency keys), then it resolves names in the service schema', async () => {
    const { rows } = await running.infra.pool.query<{ search_path: string }>('SHOW search_path');
    expect(rows[0]?.search_path.replace(/\s/g, '')).toBe(`${SCHEMA},public`);
  });

  it('when the double-booking guard is inspected, then it is an exclusion constraint on live bookings', async () => {
    const { rows } = await running.infra.pool.query<{ definition: string }>(
      `SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
        JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND c.conname = 'bookings_no_overlap'`,
      [SCHEMA],
    );
    expect(rows[0]?.definition).toMatch(
      /^EXCLUDE USING gist \(schedule_id WITH =, tstzrange\(start_time, end_time, '\[\)'::text\) WITH &&\)/,
    );
    expect(rows[0]?.definition).toMatch(/PENDING.*CONFIRMED/);
  });

  it('when the OpenAPI document is asked for, then it describes every booking route', async () => {
    const document = (await running.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(document.paths['/api/v1/bookings'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/v1/bookings/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
  });
});
