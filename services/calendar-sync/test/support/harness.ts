import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NATS_TOPOLOGY, type CalendarConnection, type EventEnvelope } from '@app/contracts';
import type { Bus } from '@app/service-kit';
import { FileDatabase, organizationHeaders, startTestService, withNeighbourBus, type RunningService } from '@app/service-testing';
import type { Subscription } from '@nats-io/nats-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { configSchema, type Config, type Tuning } from '../../src/config.js';
import { openTokens } from '../../src/domain/connection-tokens.js';
import { parseKeyRing } from '../../src/domain/token-cipher.js';
import { createServiceDefinition, type IcsNetwork } from '../../src/service.js';
import { fakeScheduling } from './fake-scheduling.js';
import { FakeProviders } from '@app/service-testing';

export const TEST_KEY_RING = `k2:${Buffer.alloc(32, 2).toString('base64')},k1:${Buffer.alloc(32, 1).toString('base64')}`;

/** Env of calendar-sync under test: providers at the fake, no background re-polls during a test. */
function testServiceEnv(fake: FakeProviders, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...fake.env(),
    CALENDAR_ENCRYPTION_KEYS: TEST_KEY_RING,
    OAUTH_STATE_SECRET: 'test-oauth-state-secret-of-at-least-32-chars',
    CALENDAR_SYNC_INTERVAL_MS: '3600000',
    CALENDAR_SYNC_POLL_MS: '100',
    ...extra,
  };
}

let filePrefix: string | undefined;
/**
 * This test file's own NATS prefix (each file runs in a worker of its own): calendar-sync's durable bookings consumer
 * must not share its events with the instances of other files, each on a database of its own.
 */
function fileNatsPrefix(): string {
  filePrefix ??= `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
  return filePrefix;
}

/** calendar-sync under test, with a bus of its neighbours (bookings publishes the events it consumes). */
export type CalendarSyncService = RunningService<Config> & { neighbour: Bus };

/** Fast retries, so that a test's provider failures and Retry-After waits pass within it. */
const FAST: Partial<Tuning> = { retryBaseMs: 10, retryMaxWaitMs: 2000, httpTimeoutMs: 5000 };

/**
 * calendar-sync on the file's database and the run's NATS, with scheduling faked at its NATS boundary; `tuning`
 * replaces some of its constants beyond the fast retries.
 */
export async function startCalendarSync(
  fake: FakeProviders,
  database: FileDatabase,
  extra: Record<string, string> = {},
  tuning: Partial<Tuning> = {},
  options: { ics?: IcsNetwork; now?: () => Date } = {},
): Promise<CalendarSyncService> {
  const NATS_PREFIX = extra.NATS_PREFIX ?? fileNatsPrefix();
  // A caller with a prefix of its own (the feed suite) fakes its neighbours itself.
  if (extra.NATS_PREFIX === undefined) await fakeScheduling(NATS_PREFIX);
  return withNeighbourBus(NATS_PREFIX, NATS_TOPOLOGY['calendar-sync'].consumes, () =>
    startTestService(
      createServiceDefinition({ tuning: { ...FAST, ...tuning }, ...options }),
      configSchema,
      testServiceEnv(fake, { DATABASE_URL: database.url, NATS_PREFIX, ...extra }),
    ),
  );
}

/** A file's calendar-sync: started on its own database with its own fake providers before the file's tests, stopped after. */
export interface CalendarSyncSuite {
  fake: FakeProviders;
  database: FileDatabase;
  /** The started service (inside tests and hooks). */
  readonly running: CalendarSyncService;
}

export function calendarSyncSuite(): CalendarSyncSuite {
  const fake = new FakeProviders();
  const database = FileDatabase.create();
  let running: CalendarSyncService | undefined;
  beforeAll(async () => {
    await fake.start();
    running = await startCalendarSync(fake, database);
  });
  afterAll(async () => {
    await running?.stop();
    await fake.stop();
    await database.drop();
  });
  return {
    fake,
    database,
    get running() {
      if (!running) throw new Error('calendar-sync is not started yet: use it inside tests and hooks');
      return running;
    },
  };
}

/** A body creating a Google connection for an account of its own, whose primary calendar is empty. */
export function connectionBody(fake: FakeProviders, overrides: Record<string, unknown> = {}) {
  const account = fake.account();
  account.google.set('primary', []);
  return { provider: 'google', schedule_id: randomUUID(), credentials: account.credentials(), ...overrides };
}

export function newOrganization(): { id: string; headers: Record<string, string> } {
  const id = randomUUID();
  return { id, headers: organizationHeaders(id) };
}

export async function createConnection(
  running: RunningService<Config>,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<CalendarConnection> {
  const response = await running.app.inject({ method: 'POST', url: '/api/v1/calendar-connections', headers, payload: body });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { data: CalendarConnection }).data;
}

export async function readConnection(
  running: RunningService<Config>,
  headers: Record<string, string>,
  id: string,
): Promise<CalendarConnection> {
  const response = await running.app.inject({ url: `/api/v1/calendar-connections/${id}`, headers });
  return (response.json() as { data: CalendarConnection }).data;
}

/** Polls `probe` until it returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Waits until the connection has finished a sync attempt after `after`. */
export async function waitForSync(running: RunningService<Config>, id: string, after: Date): Promise<ConnectionRow> {
  return waitFor(async () => {
    const row = await connectionRow(running, id);
    return row && row.last_attempted_at !== null && row.last_attempted_at > after ? row : undefined;
  }, `a sync of ${id}`);
}

export interface ConnectionRow {
  status: string;
  last_error: string | null;
  last_synced_at: Date | null;
  next_sync_at: Date | null;
  retry_not_before: Date | null;
  lease_token: string | null;
  last_attempted_at: Date | null;
  updated_at: Date;
  token_key_id: string;
  access_token_cipher: Buffer;
  refresh_token_cipher: Buffer;
  token_expires_at: Date;
}

export async function connectionRow(running: RunningService<Config>, id: string): Promise<ConnectionRow | undefined> {
  const { rows } = await running.infra.pool.query<ConnectionRow>('SELECT * FROM calendar_sync.calendar_connections WHERE id = $1', [id]);
  return rows[0];
}

/** The tokens stored for a connection, decrypted with the test key ring. */
export async function storedTokens(running: RunningService<Config>, id: string) {
  const row = await connectionRow(running, id);
  if (!row) throw new Error('no such connection');
  return openTokens(parseKeyRing(TEST_KEY_RING), id, {
    tokenKeyId: row.token_key_id,
    accessTokenCipher: new Uint8Array(row.access_token_cipher),
    refreshTokenCipher: new Uint8Array(row.refresh_token_cipher),
    tokenExpiresAt: row.token_expires_at,
  });
}

/** Collects the domain events published on `subject` (through the real NATS connection). */
export class EventCollector<T = unknown> {
  readonly events: EventEnvelope<T>[] = [];
  private readonly subscription: Subscription;

  constructor(running: RunningService<Config>, subject: string) {
    this.subscription = running.infra.bus.nc.subscribe(running.infra.bus.subject(subject), {
      callback: (_error, msg) => {
        this.events.push(msg.json() as EventEnvelope<T>);
      },
    });
  }

  async waitFor(match: (event: EventEnvelope<T>) => boolean, what: string): Promise<EventEnvelope<T>> {
    return waitFor(() => this.events.find(match), what);
  }

  stop(): void {
    this.subscription.unsubscribe();
  }
}

/** Events of a connection recorded in the outbox (written in the sync's transaction, so no waiting is needed). */
export async function outboxEvents<T = Record<string, unknown>>(
  running: RunningService<Config>,
  subject: string,
  connectionId: string,
): Promise<T[]> {
  const { rows } = await running.infra.pool.query<{ data: T }>(
    `SELECT payload->'data' AS data FROM calendar_sync.outbox WHERE subject = $1 AND payload->'data'->>'connection_id' = $2 ORDER BY created_at`,
    [subject, connectionId],
  );
  return rows.map((row) => row.data);
}
