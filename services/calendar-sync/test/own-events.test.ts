import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAccount } from '@app/service-testing';
import { TokenBox } from '../src/clients/calendar-reader.js';
import { MicrosoftTokenClient } from '../src/clients/microsoft-token.client.js';
import { outlookCalendarWriter } from '../src/clients/outlook-calendar-writer.js';
import { OWN_EVENT_MARKS } from '../src/domain/own-events.js';
import { EventCollector, calendarSyncSuite, createConnection, newOrganization, outboxEvents, waitForSync } from './support/harness.js';

interface BusyUpdated {
  connection_id: string;
  windows: { start: string; end: string }[];
}

const suite = calendarSyncSuite();
const { fake } = suite;
let busy: EventCollector<BusyUpdated>;
beforeAll(() => {
  busy = new EventCollector<BusyUpdated>(suite.running, 'calendar.busy.updated');
});
afterAll(() => busy.stop());

/** A UTC instant `days` from today at `hour`:`minute`. */
const at = (days: number, hour: number, minute = 0) => {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, minute, 0, 0);
  return date.toISOString();
};

type Provider = 'google' | 'outlook';

/** A connection of `account` for a schedule of its own, synced once (before any write-back row exists). */
async function connect(provider: Provider, account: FakeAccount, extra: Record<string, unknown> = {}) {
  const org = newOrganization();
  const before = new Date();
  const connection = await createConnection(suite.running, org.headers, {
    provider,
    schedule_id: randomUUID(),
    credentials: account.credentials(),
    ...extra,
  });
  await waitForSync(suite.running, connection.id, before);
  return { org, connection };
}

async function syncNow(connection: { id: string }, headers: Record<string, string>) {
  const before = new Date();
  const response = await suite.running.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${connection.id}/sync`, headers });
  expect(response.statusCode).toBe(202);
  const row = await waitForSync(suite.running, connection.id, before);
  expect(row.status).toBe('active');
}

async function lastWindows(connectionId: string) {
  return (await outboxEvents<BusyUpdated>(suite.running, 'calendar.busy.updated', connectionId)).at(-1)?.windows;
}

interface WriteRow {
  start: string;
  end: string;
  eventId: string | null;
  calendarId?: string;
  status?: 'pending' | 'synced' | 'failed';
  desired?: 'present' | 'absent';
}

/** A row of calendar_writes as the write-back worker keeps it for one booking of the connection's schedule. */
async function recordWrite(connection: { id: string; schedule_id: string }, orgId: string, row: WriteRow): Promise<string> {
  const bookingId = randomUUID();
  await suite.running.infra.pool.query(
    `INSERT INTO calendar_sync.calendar_writes
       (connection_id, booking_id, organization_id, schedule_id, calendar_id, booking_version, desired, start_time, end_time,
        summary, event_id, status)
     VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, 'Booking: Ada', $9, $10)`,
    [
      connection.id,
      bookingId,
      orgId,
      connection.schedule_id,
      row.calendarId ?? 'primary',
      row.desired ?? 'present',
      row.start,
      row.end,
      row.eventId,
      row.status ?? 'synced',
    ],
  );
  return bookingId;
}

describe('own events are not busy time (Google)', () => {
  it("when the schedule's own events are in the calendar, then its busy windows exclude them; another schedule's include them", async () => {
    const account = fake.account();
    const own = { start: at(2, 10), end: at(2, 11) };
    const pendingInsert = { start: at(3, 14), end: at(3, 15) };
    account.google.set('primary', [own, pendingInsert, { start: at(4, 9), end: at(4, 10) }]);
    const mine = await connect('google', account);
    const other = await connect('google', account);
    await recordWrite(mine.connection, mine.org.id, { ...own, eventId: 'google-event-1' });
    // Its insert is not confirmed yet (no event id), but the event may exist already: it does not block either.
    await recordWrite(mine.connection, mine.org.id, { ...pendingInsert, eventId: null, status: 'pending' });

    await syncNow(mine.connection, mine.org.headers);
    await syncNow(other.connection, other.org.headers);

    expect(await lastWindows(mine.connection.id)).toEqual([{ start: at(4, 9), end: at(4, 10) }]);
    expect(await lastWindows(other.connection.id)).toEqual([own, pendingInsert, { start: at(4, 9), end: at(4, 10) }]);
    const published = await busy.waitFor(
      (e) => e.data.connection_id === mine.connection.id && e.data.windows.length === 1,
      'the own schedule’s windows on NATS',
    );
    expect(published.data.windows).toEqual([{ start: at(4, 9), end: at(4, 10) }]);
  });

  it('when an own event overlaps another event, then only the own interval is cut; rows of deleted events and other calendars do not count', async () => {
    const account = fake.account();
    // freeBusy merges the booking's event (10:00–11:00) with a meeting from 10:30 to 12:00.
    account.google.set('primary', [
      { start: at(2, 10), end: at(2, 12) },
      { start: at(5, 9), end: at(5, 10) },
    ]);
    account.google.set('team@example.com', [{ start: at(6, 9), end: at(6, 10) }]);
    const mine = await connect('google', account, { calendar_ids: ['primary', 'team@example.com'] });
    await recordWrite(mine.connection, mine.org.id, { start: at(2, 10), end: at(2, 11), eventId: 'g-own' });
    // Deleted at the provider (synced without an id): a busy time there is someone else's.
    await recordWrite(mine.connection, mine.org.id, {
      start: at(5, 9),
      end: at(5, 10),
      eventId: null,
      status: 'synced',
      desired: 'absent',
    });
    // Written to primary, so it says nothing about team@example.com.
    await recordWrite(mine.connection, mine.org.id, { start: at(6, 9), end: at(6, 10), eventId: 'g-elsewhere' });

    await syncNow(mine.connection, mine.org.headers);

    expect(await lastWindows(mine.connection.id)).toEqual([
      { start: at(2, 11), end: at(2, 12) },
      { start: at(5, 9), end: at(5, 10) },
      { start: at(6, 9), end: at(6, 10) },
    ]);
  });
});

describe('own events are not busy time (Outlook)', () => {
  /** The real Outlook writer against the fake, with the account's tokens: the events carry the marks a read looks for. */
  function writerFor(account: FakeAccount) {
    const env = fake.env();
    const writer = outlookCalendarWriter({
      graphUrl: env.GRAPH_API_URL ?? '',
      tokens: new MicrosoftTokenClient({
        tokenUrl: env.MICROSOFT_TOKEN_URL ?? '',
        clientId: env.MICROSOFT_CLIENT_ID,
        clientSecret: env.MICROSOFT_CLIENT_SECRET,
        timeoutMs: 5000,
      }),
      timeoutMs: 5000,
      retry: { attempts: 2, baseMs: 10, maxWaitMs: 1000 },
    });
    const tokens = new TokenBox({
      accessToken: account.accessToken,
      refreshToken: account.refreshToken,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return (scheduleId: string, start: string, end: string) =>
      writer.insert(
        { tokens, calendarId: 'primary', signal: AbortSignal.timeout(10_000) },
        { bookingId: randomUUID(), scheduleId, start, end, summary: 'Booking: Ada', attendeeEmail: 'ada@example.com' },
      );
  }

  it("when the schedule's own events are in the calendar, then its busy windows exclude them; another schedule's include them", async () => {
    const account = fake.account();
    account.outlook.set('primary', [{ showAs: 'busy', start: at(4, 9), end: at(4, 10) }]);
    const mine = await connect('outlook', account);
    const other = await connect('outlook', account);
    const write = writerFor(account);
    const recorded = await write(mine.connection.schedule_id, at(2, 10), at(2, 11));
    await recordWrite(mine.connection, mine.org.id, { start: at(2, 10), end: at(2, 11), eventId: recorded });
    // Made by an insert whose answer was lost: no id recorded yet, found by the schedule mark.
    await write(mine.connection.schedule_id, at(3, 14), at(3, 15));
    // The other schedule's own event is busy time for this one.
    await write(other.connection.schedule_id, at(5, 8), at(5, 9));

    await syncNow(mine.connection, mine.org.headers);
    await syncNow(other.connection, other.org.headers);

    expect(await lastWindows(mine.connection.id)).toEqual([
      { start: at(4, 9), end: at(4, 10) },
      { start: at(5, 8), end: at(5, 9) },
    ]);
    expect(await lastWindows(other.connection.id)).toEqual([
      { start: at(2, 10), end: at(2, 11) },
      { start: at(3, 14), end: at(3, 15) },
      { start: at(4, 9), end: at(4, 10) },
    ]);
    const view = fake.http.requestsTo('graph.calendarView').at(-1);
    expect(new URL(view?.url ?? 'http://x').searchParams.get('$expand')).toBe(
      `singleValueExtendedProperties($filter=id eq '${OWN_EVENT_MARKS.graphScheduleId}')`,
    );
  });

  it('when Graph ignores $expand, then own events still do not block: by recorded id, or by the time of a row without one', async () => {
    const account = fake.account();
    account.outlook.set('primary', [{ showAs: 'busy', start: at(4, 9), end: at(4, 10) }]);
    const mine = await connect('outlook', account);
    const write = writerFor(account);
    const recorded = await write(mine.connection.schedule_id, at(2, 10), at(2, 11));
    await recordWrite(mine.connection, mine.org.id, { start: at(2, 10), end: at(2, 11), eventId: recorded });
    await write(mine.connection.schedule_id, at(3, 14), at(3, 15));
    await recordWrite(mine.connection, mine.org.id, { start: at(3, 14), end: at(3, 15), eventId: null, status: 'pending' });
    // Only the mark says this one is ours, and this server drops marks: it blocks (the safe side).
    await write(mine.connection.schedule_id, at(6, 8), at(6, 9));
    fake.graphIgnoresExpand = true;
    try {
      await syncNow(mine.connection, mine.org.headers);
    } finally {
      fake.graphIgnoresExpand = false;
    }

    expect(await lastWindows(mine.connection.id)).toEqual([
      { start: at(4, 9), end: at(4, 10) },
      { start: at(6, 8), end: at(6, 9) },
    ]);
  });
});
