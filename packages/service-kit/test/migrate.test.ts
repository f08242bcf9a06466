import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrate } from '../src/index.js';

describe('migrate', () => {
  it('when run twice, concurrently, then the kit and service migrations are applied once into the schema', async () => {
    const schema = `mig_${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '0001_init.sql'), 'CREATE TABLE widgets (id uuid PRIMARY KEY, name text NOT NULL);');
    writeFileSync(join(dir, '0002_color.sql'), 'ALTER TABLE widgets ADD COLUMN color text;');
    const databaseUrl = inject('databaseUrl');

    await Promise.all([migrate({ databaseUrl, schema, dir }), migrate({ databaseUrl, schema, dir })]);
    await migrate({ databaseUrl, schema, dir });

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const tables = await client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    const applied = await client.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY name`);
    await client.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'idempotency_records',
      'inbox',
      'kit_migrations',
      'migrations',
      'outbox',
      'widgets',
    ]);
    expect(applied.rows.map((r) => r.name)).toEqual(['0001_init', '0002_color']);
  });
});
