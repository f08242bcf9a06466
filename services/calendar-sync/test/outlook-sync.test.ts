import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { FakeAccount } from '@app/service-testing';
import { FAKE_SCHEDULE_ZONE } from './support/fake-scheduling.js';
import { createConnection, newOrganization, outboxEvents, storedTokens, waitForSync, calendarSyncSuite } from './support/harness.js';

interface BusyUpdated {
  windows: { start: string; end: string }[];
}

const suite = calendarSyncSuite();
const { fake } = suite;

/** A UTC instant `days` from today at `hour`:00. */
const at = (days: number, hour: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};
const dateIn = (days: number) => at(days, 12).slice(0, 10);

async function connect(account: FakeAccount, extra: Record<string, unknown> = {}) {
  const org = newOrganization();
  const before = new Date();
  const connection = await createConnection(suite.running, org.headers, {
    provider: 'outlook',
    schedule_id: randomUUID(),
    credentials: account.credentials(),
    ...extra,
  });
  const row = await waitForSync(suite.running, connection.id, before);
  return { org, connection, row };
}

async function syncNow(id: string, headers: Record<string, string>) {
  const before = new Date();
  await suite.running.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${id}/sync`, headers });
  return waitForSync(suite.running, id, before);
}

async function lastWindows(connectionId: string) {
  return (await outboxEvents<BusyUpdated>(suite.running, 'calendar.busy.updated', connectionId)).at(-1)?.windows;
}

describe('Outlook sync', () => {
  it('when events span several pages, then every page is followed and only busy, tentative and oof block', async () => {
    const account = fake.account();
    account.outlook.set('primary', [
      { showAs: 'busy', start: at(1, 9), end: at(1, 10) },
      { showAs: 'free', start: at(1, 11), end: at(1, 12) },
      { showAs: 'tentative', start: at(2, 9), end: at(2, 10) },
      { showAs: 'workingElsewhere', start: at(2, 13), end: at(2, 14) },
      { showAs: 'oof', start: at(3, 9), end: at(3, 17) },
      { showAs: 'busy', start: at(4, 9), end: at(4, 10), isCancelled: true },
      { showAs: 'busy', start: at(5, 15), end: at(5, 16) },
    ]);
    const { row, connection } = await connect(account);
    expect(row.status).toBe('active');
    const pages = fake.http.requestsTo('graph.calendarView').filter((r) => r.authorization === `Bearer ${account.accessToken}`);
    expect(pages).toHaveLength(4);
    expect(pages[0]?.url).toContain('/graph/v1.0/me/calendar/calendarView?');
    expect(pages[0]?.prefer).toBe('outlook.timezone="UTC"');
    expect(await lastWindows(connection.id)).toEqual([
      { start: at(1, 9), end: at(1, 10) },
      { start: at(2, 9), end: at(2, 10) },
      { start: at(3, 9), end: at(3, 17) },
      { start: at(5, 15), end: at(5, 16) },
    ]);
  });

  it("when Graph's nextLink names graph.microsoft.com, then it is followed against the configured base URL", async () => {
    fake.nextLinkBase = 'https://graph.microsoft.com/v1.0';
    try {
      const account = fake.account();
      account.outlook.set('work-calendar-id', [
        { showAs: 'busy', start: at(1, 9), end: at(1, 10) },
        { showAs: 'busy', start: at(2, 9), end: at(2, 10) },
        { showAs: 'busy', start: at(3, 9), end: at(3, 10) },
      ]);
      const { row, connection } = await connect(account, { calendar_ids: ['work-calendar-id'] });
      expect(row.status).toBe('active');
      const pages = fake.http.requestsTo('graph.calendarView').filter((r) => r.authorization === `Bearer ${account.accessToken}`);
      expect(pages.map((p) => new URL(p.url).pathname)).toEqual([
        '/graph/v1.0/me/calendars/work-calendar-id/calendarView',
        '/graph/v1.0/me/calendars/work-calendar-id/calendarView',
      ]);
      expect(pages[1]?.url).toContain('skiptoken=2');
      expect(await lastWindows(connection.id)).toHaveLength(3);
    } finally {
      fake.nextLinkBase = undefined;
    }
  });

  it('when an event is all-day, then it blocks the whole local day in the schedule zone', async () => {
    const account = fake.account();
    account.outlook.set('primary', [{ showAs: 'oof', isAllDay: true, start: dateIn(3), end: dateIn(4) }]);
    const { connection } = await connect(account);
    // The fake scheduling service puts every schedule in America/New_York.
    const midnight = (date: string) => DateTime.fromISO(date, { zone: FAKE_SCHEDULE_ZONE }).toUTC().toISO();
    expect(await lastWindows(connection.id)).toEqual([{ start: midnight(dateIn(3)), end: midnight(dateIn(4)) }]);
  });

  it('when one calendar is unknown (404), then the others still count and the connection shows error', async () => {
    const account = fake.account();
    account.outlook.set('primary', [{ showAs: 'busy', start: at(1, 9), end: at(1, 10) }]);
    const { row, connection } = await connect(account, { calendar_ids: ['primary', 'gone'] });
    expect(row.status).toBe('error');
    expect(row.last_error).toContain('calendar gone');
    expect(row.last_error).toContain('404');
    expect(await lastWindows(connection.id)).toEqual([{ start: at(1, 9), end: at(1, 10) }]);
  });

  it('when Graph answers 401, then the token is refreshed once and the rotated refresh token is stored', async () => {
    const account = fake.account();
    account.outlook.set('primary', []);
    const { org, connection } = await connect(account);
    const firstRefreshToken = account.refreshToken;
    fake.expireAccessToken(account);
    const row = await syncNow(connection.id, org.headers);
    expect(row.status).toBe('active');
    const stored = await storedTokens(suite.running, connection.id);
    expect(stored.accessToken).toBe(account.accessToken);
    expect(stored.refreshToken).toBe(account.refreshToken);
    expect(stored.refreshToken).not.toBe(firstRefreshToken);
  });

  it('when a connection writes back, then its token refresh asks for Calendars.ReadWrite; a read-only one for Calendars.Read', async () => {
    const scopesOfRefresh = async (extra: Record<string, unknown>) => {
      const account = fake.account();
      account.outlook.set('primary', []);
      const { org, connection } = await connect(account, extra);
      fake.expireAccessToken(account);
      const row = await syncNow(connection.id, org.headers);
      expect(row.status).toBe('active');
      const refresh = suite.fake.http
        .requestsTo('microsoft.token')
        .map((request) => new URLSearchParams(request.body))
        .filter((form) => form.get('grant_type') === 'refresh_token' && form.get('refresh_token')?.startsWith(`${account.id}-`));
      expect(refresh).toHaveLength(1);
      return refresh[0]?.get('scope');
    };
    expect(await scopesOfRefresh({ write_calendar_id: 'primary' })).toBe('offline_access Calendars.ReadWrite');
    expect(await scopesOfRefresh({})).toBe('offline_access Calendars.Read');
  });

  it('when the refresh token is refused (invalid_grant), then reauth_required and polling stops', async () => {
    const account = fake.account();
    account.outlook.set('primary', []);
    const { org, connection } = await connect(account);
    fake.revokeRefreshTokens(account);
    fake.expireAccessToken(account);
    const row = await syncNow(connection.id, org.headers);
    expect(row).toMatchObject({ status: 'reauth_required', next_sync_at: null });
    expect(row.last_error).toContain('invalid_grant');
  });

  it('when Graph answers 429 with Retry-After, then the sync waits and succeeds; on 503 for good it shows error', async () => {
    const account = fake.account();
    account.outlook.set('primary', [{ showAs: 'busy', start: at(1, 9), end: at(1, 10) }]);
    const { org, connection } = await connect(account);
    fake.http.script('graph.calendarView', {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'TooManyRequests', message: 'throttled' } },
    });
    expect((await syncNow(connection.id, org.headers)).status).toBe('active');

    fake.http.script(
      'graph.calendarView',
      ...Array.from({ length: 4 }, () => ({ status: 503, body: { error: { code: 'ServiceUnavailable', message: 'down' } } })),
    );
    const failed = await syncNow(connection.id, org.headers);
    expect(failed.status).toBe('error');
    expect(failed.last_error).toContain('503');
  });
});
