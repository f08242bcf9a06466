import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { createPool, IdempotencyStore, migrate, requestHash } from '@app/service-kit';
import { MIGRATIONS_DIR } from '../../src/service.js';

/** Migration 0002 moves the keys of bookings' own table into the kit's, so a retry across the upgrade still replays. */
describe('migration 0002: idempotency keys to the kit', () => {
  const schema = `bookings_upgrade_${randomUUID().slice(0, 8)}`;
  let pool: pg.Pool;
  beforeAll(async () => {
    const databaseUrl = inject('databaseUrl');
    const before = mkdtempSync(join(tmpdir(), 'bookings-0001-'));
    copyFileSync(join(MIGRATIONS_DIR, '0001_init.sql'), join(before, '0001_init.sql'));
    await migrate({ databaseUrl, schema, dir: before });
    pool = createPool(databaseUrl, { max: 2, log: { warn: () => undefined }, schema });
  });
  afterAll(() => pool.end());

  it('when a key of the last 24 hours existed, then its first response is replayed from the kit’s table; older ones are gone', async () => {
    const organizationId = randomUUID();
    const body = { schedule_id: randomUUID() };
    const insert = `INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response_body, created_at)
                    VALUES ($1::uuid, $2, $3, 201, '{"data":{"id":"b-1"}}'::jsonb, now() - $4::interval)`;
    await pool.query(insert, [organizationId, 'recent', requestHash(body), '1 hour']);
    await pool.query(insert, [organizationId, 'stale', requestHash(body), '25 hours']);

    await migrate({ databaseUrl: inject('databaseUrl'), schema, dir: MIGRATIONS_DIR });

    const store = new IdempotencyStore(pool);
    const recent = await store.find({ scope: organizationId, key: 'recent' });
    expect(recent).toMatchObject({ target: 'POST /api/v1/bookings', requestHash: requestHash(body), response: { statusCode: 201 } });
    expect(JSON.parse(recent?.response?.body ?? 'null')).toEqual({ data: { id: 'b-1' } });
    expect(await store.find({ scope: organizationId, key: 'stale' })).toBeNull();
    expect((await pool.query(`SELECT to_regclass('idempotency_keys') AS t`)).rows[0]).toEqual({ t: null });
  });
});
