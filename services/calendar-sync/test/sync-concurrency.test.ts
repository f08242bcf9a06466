import { randomUUID } from 'node:crypto';
import { createPool, migrate, prismaAdapter } from '@app/service-kit';
import { FileDatabase, type RunningService } from '@app/service-testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { finishSync } from '../src/db/sync-result.repository.js';
import { claimDueConnections } from '../src/db/sync.repository.js';
import { sealTokens } from '../src/domain/connection-tokens.js';
import { decideAfterSync } from '../src/domain/sync-decision.js';
import { syncRange } from '../src/domain/sync-range.js';
import { parseKeyRing } from '../src/domain/token-cipher.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { MIGRATIONS_DIR, SCHEMA } from '../src/service.js';
import { FakeProviders } from '@app/service-testing';
import { TEST_KEY_RING, connectionRow, createConnection, newOrganization, startCalendarSync, waitFor } from './support/harness.js';

describe('claiming connections to sync', () => {
  const database = FileDatabase.create();
  let pool: pg.Pool;
  let prisma: PrismaClient;

  beforeAll(async () => {
    await migrate({ databaseUrl: database.url, schema: SCHEMA, dir: MIGRATIONS_DIR });
    pool = createPool(database.url, { max: 20, log: { warn: () => undefined }, schema: SCHEMA });
    prisma = new PrismaClient({ adapter: prismaAdapter(pool, SCHEMA) });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function insertDue(): Promise<string> {
    const id = randomUUID();
    const tokens = sealTokens(parseKeyRing(TEST_KEY_RING), id, { accessToken: 'a', refreshToken: 'r', expiresAt: new Date() });
    await prisma.calendarConnection.create({
      data: {
        id,
        organizationId: randomUUID(),
        provider: 'google',
        scheduleId: randomUUID(),
        calendarIds: ['primary'],
        timeZone: 'UTC',
        ...tokens,
        nextSyncAt: new Date(),
      },
    });
    return id;
  }

  it('when many claims race, then each due connection is claimed exactly once, and again only after its lease ran out', async () => {
    const ids = await Promise.all([insertDue(), insertDue(), insertDue()]);
    const claims = (await Promise.all(Array.from({ length: 10 }, () => claimDueConnections(prisma, 5, 300)))).flat();
    expect(claims.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(await claimDueConnections(prisma, 5, 300)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The replica holding them "crashed": after the lease another one takes over, and the old lease no longer commits.
    const takeover = await claimDueConnections(prisma, 5, 60_000);
    expect(takeover.map((c) => c.id).sort()).toEqual([...ids].sort());
    const stale = claims[0];
    if (!stale) throw new Error('no claim');
    const decision = decideAfterSync({ kind: 'read', readCalendars: 1, failedCalendars: [] }, 0, new Date(), {
      intervalMs: 60_000,
      random: () => 0.5,
    });
    const result = { claim: stale, reads: [], decision, range: syncRange(new Date()), syncedAt: new Date(), tokens: undefined };
    expect(await finishSync(prisma, result)).toBe(false);
    const current = takeover.find((c) => c.id === stale.id);
    if (!current) throw new Error('no takeover');
    expect(await finishSync(prisma, { ...result, claim: current })).toBe(true);
  });
});

describe('two replicas syncing', () => {
  const fake = new FakeProviders();
  const database = FileDatabase.create();
  const replicas: RunningService<Config>[] = [];

  beforeAll(async () => {
    await fake.start();
    fake.delayMs = 100;
    const env = { CALENDAR_SYNC_POLL_MS: '50' };
    const tuning = { syncConcurrency: 8 };
    replicas.push(await startCalendarSync(fake, database, env, tuning), await startCalendarSync(fake, database, env, tuning));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await fake.stop();
    await database.drop();
  });

  it('when syncs of one connection are requested on both replicas at once, then they never overlap', async () => {
    const account = fake.account();
    account.google.set('primary', []);
    const org = newOrganization();
    const [first, second] = replicas;
    if (!first || !second) throw new Error('replicas missing');
    const connection = await createConnection(first, org.headers, {
      provider: 'google',
      schedule_id: randomUUID(),
      credentials: account.credentials(),
    });
    let lastRequest = new Date();
    for (let round = 0; round < 3; round += 1) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? first : second).app.inject({
            method: 'POST',
            url: `/api/v1/calendar-connections/${connection.id}/sync`,
            headers: org.headers,
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 202));
      lastRequest = new Date();
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    // A sync requested while another ran is not lost: one more sync starts after the last request.
    await waitFor(async () => {
      const row = await connectionRow(first, connection.id);
      return row?.last_attempted_at && row.last_attempted_at > lastRequest && row.lease_token === null ? row : undefined;
    }, 'the requested syncs to finish');
    expect(fake.http.requestsTo('google.freebusy').length).toBeGreaterThanOrEqual(3);
    expect(account.maxInFlight).toBe(1);
  });
});

describe('stopping a replica mid-sync', () => {
  const fake = new FakeProviders();
  const database = FileDatabase.create();

  beforeAll(() => fake.start());
  afterAll(async () => {
    await fake.stop();
    await database.drop();
  });

  it('when the replica stops while a provider request is open, then the claim is given back without marking the connection failed', async () => {
    const replica = await startCalendarSync(fake, database);
    const account = fake.account();
    account.google.set('primary', []);
    fake.delayMs = 3000;
    const connection = await createConnection(replica, newOrganization().headers, {
      provider: 'google',
      schedule_id: randomUUID(),
      credentials: account.credentials(),
    });
    await waitFor(() => (account.inFlight > 0 ? true : undefined), 'the provider request');
    const observer = createPool(database.url, { max: 1, log: { warn: () => undefined } });
    try {
      await replica.stop();
      const { rows } = await observer.query(
        'SELECT status, lease_token, last_attempted_at, next_sync_at FROM calendar_sync.calendar_connections WHERE id = $1',
        [connection.id],
      );
      expect(rows[0]).toMatchObject({ status: 'active', lease_token: null, last_attempted_at: null });
      expect((rows[0] as { next_sync_at: Date }).next_sync_at.getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await observer.end();
    }
  });
});
