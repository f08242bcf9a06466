import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
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

  it('when Postgres cannot be reached at first, then the step keeps trying and migrates once it can', async () => {
    const schema = `mig_${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '0001_init.sql'), 'CREATE TABLE widgets (id uuid PRIMARY KEY);');
    const target = new URL(inject('databaseUrl'));
    // A port nobody listens on yet: connections are refused until the forwarder to Postgres opens on it.
    const forwarder = createServer((socket) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    const { port } = forwarder.address() as AddressInfo;
    await new Promise<void>((resolve) => forwarder.close(() => resolve()));
    const databaseUrl = new URL(target);
    databaseUrl.hostname = '127.0.0.1';
    databaseUrl.port = String(port);

    const migrating = migrate({ databaseUrl: databaseUrl.toString(), schema, dir });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    forwarder.listen(port, '127.0.0.1');
    try {
      await migrating;
    } finally {
      forwarder.close();
    }

    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    const applied = await client.query<{ name: string }>(`SELECT name FROM "${schema}".migrations`);
    await client.end();
    expect(applied.rows.map((r) => r.name)).toEqual(['0001_init']);
  });
});
