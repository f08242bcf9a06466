import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prismaDatamodel, schemaDrift, startedForTests } from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { startBookings } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

describe('bookings service', () => {
  const running = startedForTests(startBookings);

  it('when started, then it is ready with database and NATS', async () => {
    const response = await running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
  });

  it('when the migrations have run, then the Prisma schema mirrors them', async () => {
    expect(await schemaDrift(running.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });

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
