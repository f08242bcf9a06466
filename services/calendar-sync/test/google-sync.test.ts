import { randomUUID } from 'node:crypto';
import { FileDatabase, type RunningService } from '@app/service-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { FakeProviders, metricValue, type FakeAccount } from '@app/service-testing';
import {
  EventCollector,
  connectionRow,
  createConnection,
  outboxEvents,
  newOrganization,
  readConnection,
  startCalendarSync,
  storedTokens,
  waitFor,
  waitForSync,
} from './support/harness.js';

interface BusyUpdated {
  connection_id: string;
  schedule_id: string;
  range: { start: string; end: string };
  windows: { start: string; end: string }[];
  synced_at: string;
}

const fake = new FakeProviders();
const database = FileDatabase.create();
let running: RunningService<Config>;
let busy: EventCollector<BusyUpdated>;

beforeAll(async () => {
  await fake.start();
  running = await startCalendarSync(fake, database);
  busy = new EventCollector<BusyUpdated>(running, 'calendar.busy.updated');
});
afterAll(async () => {
  busy.stop();
  await running.stop();
  await fake.stop();
  await database.drop();
});

const inDays = (days: number, hour = 10) => {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

async function connect(account: FakeAccount, extra: Record<string, unknown> = {}, expiresInMs = 3600_000) {
  const org = newOrganization();
  const before = new Date();
  const connection = await createConnection(running, org.headers, {
    provider: 'google',
    schedule_id: randomUUID(),
    credentials: account.credentials(expiresInMs),
    ...extra,
  });
  const row = await waitForSync(running, connection.id, before);
  return { org, connection, row };
}

/** An account of its own whose primary calendar is empty, connected and synced once. */
async function connectEmptyPrimary() {
  const account = fake.account();
  account.google.set('primary', []);
  return { account, ...(await connect(account)) };
}

/** Google's answer to a caller over its quota: come back after `retryAfter` seconds. */
const rateLimited = (retryAfter: string) => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: { error: { code: 429, message: 'Rate Limit Exceeded' } },
});

async function syncNow(id: string, headers: Record<string, string>) {
  const before = new Date();
  const response = await running.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${id}/sync`, headers });
  expect(response.statusCode).toBe(202);
  return waitForSync(running, id, before);
}

describe('Google sync', () => {
  it('when the calendars have busy times, then calendar.busy.updated carries them merged over now..now+62 days', async () => {
    const account = fake.account();
    account.google.set('primary', [{ start: inDays(2, 10), end: inDays(2, 11) }]);
    account.google.set('team@example.com', [
      { start: inDays(2, 10), end: inDays(2, 12) },
      { start: inDays(3, 9), end: inDays(3, 10) },
    ]);
    const { org, connection, row } = await connect(account, { calendar_ids: ['primary', 'team@example.com'] });
    expect(row.status).toBe('active');
    const event = await busy.waitFor((e) => e.data.connection_id === connection.id, 'busy update');
    expect(event.organization_id).toBe(org.id);
    expect(event.data.schedule_id).toBe(connection.schedule_id);
    expect(event.data.windows).toEqual([
      { start: inDays(2, 10), end: inDays(2, 12) },
      { start: inDays(3, 9), end: inDays(3, 10) },
    ]);
    const rangeDays = (Date.parse(event.data.range.end) - Date.parse(event.data.range.start)) / 86_400_000;
    expect(rangeDays).toBe(62);
    const shown = await readConnection(running, org.headers, connection.id);
    expect(shown).toMatchObject({ status: 'active', last_error: null, last_synced_at: expect.any(String) });
    const request = JSON.parse(fake.http.requestsTo('google.freebusy').at(-1)?.body ?? '{}') as { items: { id: string }[] };
    expect(request.items).toEqual([{ id: 'primary' }, { id: 'team@example.com' }]);
  });

  it('when one calendar reports errors inside a 200, then it counts as failed, not free: its last windows stay and the connection shows error', async () => {
    const account = fake.account();
    account.google.set('primary', [{ start: inDays(1), end: inDays(1, 11) }]);
    account.google.set('shared@example.com', [{ start: inDays(4), end: inDays(4, 11) }]);
    const { org, connection } = await connect(account, { calendar_ids: ['primary', 'shared@example.com'] });
    account.google.set('shared@example.com', { error: 'internalError' });
    account.google.set('primary', []);
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('error');
    expect(row.last_error).toContain('shared@example.com');
    expect(row.last_error).toContain('internalError');
    // primary was read (now free); the unreadable calendar keeps blocking with its last known window.
    await waitFor(
      () => (busy.events.filter((e) => e.data.connection_id === connection.id).length === 2 ? true : undefined),
      'second update',
    );
    expect(busy.events.filter((e) => e.data.connection_id === connection.id).at(-1)?.data.windows).toEqual([
      { start: inDays(4), end: inDays(4, 11) },
    ]);

    account.google.set('shared@example.com', []);
    const healed = await syncNow(connection.id, org.headers);
    expect(healed).toMatchObject({ status: 'active', last_error: null });
    await busy.waitFor((e) => e.data.connection_id === connection.id && e.data.windows.length === 0, 'windows cleared');
  });

  it('when every calendar is unreadable, then nothing is published and the connection shows error', async () => {
    const account = fake.account();
    const { org, connection, row } = await connect(account, { calendar_ids: ['missing@example.com'] });
    expect(row.status).toBe('error');
    expect(row.last_error).toContain('notFound');
    expect(await outboxEvents(running, 'calendar.busy.updated', connection.id)).toHaveLength(0);
    expect((await readConnection(running, org.headers, connection.id)).last_synced_at).toBeNull();
  });

  it('when syncs read everything, part, or need a reauth, then calendar_sync_outcomes_total counts each by provider and outcome', async () => {
    const count = (outcome: string) =>
      metricValue(running.app, 'calendar_sync_outcomes_total', { provider: 'google', outcome }).then((v) => v ?? 0);
    const before = { ok: await count('ok'), partial: await count('partial'), reauth: await count('reauth') };
    const account = fake.account();
    account.google.set('primary', []);
    account.google.set('shared@example.com', []);
    const { org, connection } = await connect(account, { calendar_ids: ['primary', 'shared@example.com'] });
    // At least: connections of earlier tests that ended in error may be retried meanwhile.
    expect(await count('ok')).toBeGreaterThanOrEqual(before.ok + 1);
    account.google.set('shared@example.com', { error: 'internalError' });
    await syncNow(connection.id, org.headers);
    expect(await count('partial')).toBeGreaterThanOrEqual(before.partial + 1);
    account.google.set('shared@example.com', []);
    fake.revokeRefreshTokens(account);
    fake.expireAccessToken(account);
    await syncNow(connection.id, org.headers);
    expect(await count('reauth')).toBe(before.reauth + 1);
  });

  it('when the access token is about to expire, then it is refreshed before the query and the new one is stored encrypted', async () => {
    const account = fake.account();
    account.google.set('primary', []);
    const oldToken = account.accessToken;
    const { connection, row } = await connect(account, {}, 60_000);
    expect(row.status).toBe('active');
    const refreshes = fake.http
      .requestsTo('google.token')
      .filter((r) => r.body.includes(encodeURIComponent(account.refreshToken)) || r.body.includes(account.refreshToken));
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    const stored = await storedTokens(running, connection.id);
    expect(stored.accessToken).toBe(account.accessToken);
    expect(stored.accessToken).not.toBe(oldToken);
    expect(stored.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const freebusyAuth = fake.http.requestsTo('google.freebusy').filter((r) => r.authorization === `Bearer ${oldToken}`);
    expect(freebusyAuth).toHaveLength(0);
  });

  it('when Google answers 401, then the token is refreshed once and the query repeated', async () => {
    const account = fake.account();
    account.google.set('primary', [{ start: inDays(5), end: inDays(5, 11) }]);
    const { org, connection } = await connect(account);
    const staleToken = account.accessToken;
    fake.expireAccessToken(account);
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('active');
    expect(fake.http.requestsTo('google.freebusy').filter((r) => r.authorization === `Bearer ${staleToken}`).length).toBeGreaterThanOrEqual(
      2,
    );
    expect((await storedTokens(running, connection.id)).accessToken).toBe(account.accessToken);
  });

  it('when the refresh token is refused (invalid_grant), then reauth_required, polling stops and manual sync is refused', async () => {
    const { account, org, connection } = await connectEmptyPrimary();
    fake.revokeRefreshTokens(account);
    fake.expireAccessToken(account);
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('reauth_required');
    expect(row.next_sync_at).toBeNull();
    expect(row.last_error).toContain('invalid_grant');
    const again = await running.app.inject({
      method: 'POST',
      url: `/api/v1/calendar-connections/${connection.id}/sync`,
      headers: org.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT' });
    // The record as GET shows it after the change (event-carried state).
    expect(await outboxEvents(running, 'calendar.connection.status_changed', connection.id)).toEqual([
      expect.objectContaining({
        status: 'reauth_required',
        previous_status: 'active',
        record: await readConnection(running, org.headers, connection.id),
      }),
    ]);
  });

  it('when Google answers 429 with a short Retry-After, then the sync waits that long and succeeds', async () => {
    const { org, connection } = await connectEmptyPrimary();
    fake.http.script('google.freebusy', rateLimited('1'));
    const before = fake.http.requests.length;
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('active');
    const attempts = fake.http.requests.slice(before).filter((r) => r.route === 'google.freebusy');
    expect(attempts).toHaveLength(2);
    // Retry-After: 1 is honoured (a lower bound, not a performance assertion).
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('when Google answers 429 with a long Retry-After, then the sync ends with error and the next one waits for it', async () => {
    const { org, connection } = await connectEmptyPrimary();
    fake.http.script('google.freebusy', rateLimited('120'));
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('error');
    expect(row.last_error).toContain('429');
    expect(row.retry_not_before?.getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(row.next_sync_at?.getTime()).toBeGreaterThan(Date.now() + 100_000);
    // A manual sync does not jump the provider's queue.
    await running.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${connection.id}/sync`, headers: org.headers });
    expect((await connectionRow(running, connection.id))?.next_sync_at?.getTime()).toBeGreaterThan(Date.now() + 100_000);
  });

  it('when Google answers 5xx or drops the connection, then the query is retried and the sync succeeds', async () => {
    const account = fake.account();
    account.google.set('primary', [{ start: inDays(6), end: inDays(6, 11) }]);
    const { org, connection } = await connect(account);
    fake.http.script(
      'google.freebusy',
      { status: 500, body: { error: { code: 500, message: 'Backend Error' } } },
      { status: 0, hangUp: true },
      { status: 503, body: {} },
    );
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('active');
  });

  it('when Google keeps failing with 5xx, then the connection shows error and keeps its last windows (nothing published)', async () => {
    const account = fake.account();
    account.google.set('primary', [{ start: inDays(7), end: inDays(7, 11) }]);
    const { org, connection } = await connect(account);
    const published = (await outboxEvents(running, 'calendar.busy.updated', connection.id)).length;
    fake.http.script('google.freebusy', ...Array.from({ length: 4 }, () => ({ status: 502, body: {} })));
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('error');
    expect(row.last_error).toContain('502');
    expect(await outboxEvents(running, 'calendar.busy.updated', connection.id)).toHaveLength(published);
    expect(row.next_sync_at?.getTime()).toBeGreaterThan(Date.now());
  });
});
