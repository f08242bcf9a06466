import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { startNatsContainer, startPostgresContainer, type StartedNats, type StartedPostgres } from '../src/index.js';

describe('a Postgres container', () => {
  let postgres: StartedPostgres;
  beforeAll(async () => {
    postgres = await startPostgresContainer();
  }, 90_000);
  afterAll(() => postgres?.remove());

  it('creates the extensions the services migrate with (btree_gist, pg_trgm)', async () => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS btree_gist');
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      const { rows } = await client.query<{ extname: string }>('SELECT extname FROM pg_extension ORDER BY extname');
      expect(rows.map((row) => row.extname)).toEqual(expect.arrayContaining(['btree_gist', 'pg_trgm']));
    } finally {
      await client.end();
    }
  });
});

describe('a NATS container stopped and started again', () => {
  let nats: StartedNats;
  beforeAll(async () => {
    nats = await startNatsContainer();
  }, 90_000);
  afterAll(() => nats?.remove());

  it('keeps its URL and a stream with its message', async () => {
    const before = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(before);
    await jsm.streams.add({ name: 'kept', subjects: ['kept.>'] });
    await jetstream(before).publish('kept.one', 'hello');
    await before.close();

    await nats.stop();
    await expect(connect({ servers: nats.url, reconnect: false, timeout: 1000 })).rejects.toThrow();
    await nats.start();

    const after = await connect({ servers: nats.url });
    try {
      const message = await (await jetstreamManager(after)).streams.getMessage('kept', { seq: 1 });
      expect(message?.string()).toBe('hello');
    } finally {
      await after.close();
    }
  });
});

describe('a container whose image is missing', () => {
  it('fails with a message naming the image and how to get it, without hanging', async () => {
    const image = 'localhost/does-not-exist:none';
    const started = Date.now();
    const failure = startPostgresContainer({ image });
    await expect(failure).rejects.toThrow(`image ${image} is not on this machine and could not be pulled`);
    await expect(failure).rejects.toThrow('source scripts/container-engine.sh && source scripts/base-images.sh');
    await expect(failure).rejects.toThrow('POSTGRES_IMAGE');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
