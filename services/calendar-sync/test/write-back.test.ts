import { randomUUID } from 'node:crypto';
import { bookingCreatedEvent } from '@app/contracts';
import { FakeProviders, FileDatabase, publishDomainEvent, type FakeAccount } from '@app/service-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishedBooking, at, bookingState } from './support/bookings.js';
import {
  createConnection,
  newOrganization,
  outboxEvents,
  readConnection,
  startCalendarSync,
  storedTokens,
  waitFor,
  waitForSync,
  type CalendarSyncService,
} from './support/harness.js';

interface BookingCalendarEvent {
  booking_id: string;
  connection_id: string;
  provider: string;
  event_id: string | null;
  status: string;
  last_error: string | null;
  version: number;
}

interface WriteRow {
  desired: string;
  status: string;
  event_id: string | null;
  last_error: string | null;
  attempts: number;
  booking_version: number;
  version: number;
  next_attempt_at: Date | null;
}

const fake = new FakeProviders();
const database = FileDatabase.create();
let running: CalendarSyncService;

// A 1 s client timeout (the stalled-insert case), failed writes retried after 0.3 s, 0.6 s … (at most 1 s).
const TUNING = { httpTimeoutMs: 1000, writeRetryBaseMs: 300, writeRetryCapMs: 1000 };

beforeAll(async () => {
  await fake.start();
  running = await startCalendarSync(fake, database, {}, TUNING);
});
afterAll(async () => {
  await running.stop();
  await fake.stop();
  await database.drop();
});

/** A Google account of its own with an empty primary calendar, connected to a new schedule with write-back there. */
async function writingConnection(account: FakeAccount = fake.account(), extra: Record<string, unknown> = {}) {
  account.google.set('primary', []);
  const org = newOrganization();
  const connection = await createConnection(running, org.headers, {
    provider: 'google',
    schedule_id: randomUUID(),
    credentials: account.credentials(),
    write_calendar_id: 'primary',
    ...extra,
  });
  return {
    org,
    account,
    connection,
    booking: (overrides = {}) => new PublishedBooking(running, org.id, bookingState(connection.schedule_id, overrides)),
  };
}

/** The events of the account's calendar that are not deleted. */
const liveEvents = (account: FakeAccount, calendarId = 'primary') =>
  (account.googleEvents.get(calendarId) ?? []).filter((event) => event.status === 'confirmed');

async function writeRow(connectionId: string, bookingId: string): Promise<WriteRow | undefined> {
  const { rows } = await running.infra.pool.query<WriteRow>(
    'SELECT * FROM calendar_sync.calendar_writes WHERE connection_id = $1 AND booking_id = $2',
    [connectionId, bookingId],
  );
  return rows[0];
}

const waitForRow = (connectionId: string, bookingId: string, match: (row: WriteRow) => boolean, what: string, ms?: number) =>
  waitFor(
    async () => {
      const row = await writeRow(connectionId, bookingId);
      return row && match(row) ? row : undefined;
    },
    what,
    ms,
  );

const changedEvents = (connectionId: string) => outboxEvents<BookingCalendarEvent>(running, 'calendar.booking_event.changed', connectionId);

describe('write-back to Google', () => {
  it('when a booking is created, rescheduled and cancelled, then one event is inserted, patched and deleted, and each state is published', async () => {
    const { account, connection, booking } = await writingConnection();
    const published = booking();
    await published.created();
    const synced = await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the insert');
    const [event] = liveEvents(account);
    expect(liveEvents(account)).toHaveLength(1);
    expect(event).toMatchObject({
      id: synced.event_id,
      summary: 'Intro call',
      start: published.state.start_time,
      end: published.state.end_time,
      attendees: ['ada@example.com'],
      privateProperties: { booking_id: published.id, schedule_id: connection.schedule_id },
    });

    await published.confirmed(); // nothing the event shows changes: no provider request
    await published.rescheduled(at(4, 14), at(4, 15));
    await waitForRow(connection.id, published.id, (row) => row.booking_version === 3 && row.status === 'synced', 'the patch');
    expect(liveEvents(account)).toEqual([expect.objectContaining({ id: event?.id, start: at(4, 14), end: at(4, 15), patches: 1 })]);

    await published.cancelled();
    const removed = await waitForRow(
      connection.id,
      published.id,
      (row) => row.desired === 'absent' && row.status === 'synced',
      'the delete',
    );
    expect(removed.event_id).toBeNull();
    expect(liveEvents(account)).toHaveLength(0);
    expect(fake.http.requestsTo('google.events.insert').filter((r) => r.body.includes(published.id))).toHaveLength(1);

    const states = (await changedEvents(connection.id)).map(({ event_id, status, version }) => ({ event_id, status, version }));
    expect(states).toEqual([
      { event_id: null, status: 'pending', version: 1 },
      { event_id: event?.id, status: 'synced', version: 2 },
      { event_id: event?.id, status: 'pending', version: 3 },
      { event_id: event?.id, status: 'synced', version: 4 },
      { event_id: event?.id, status: 'pending', version: 5 },
      { event_id: null, status: 'synced', version: 6 },
    ]);
  });

  it('when the booking has no title, then the summary is `Booking: <attendee_name>`', async () => {
    const { account, connection, booking } = await writingConnection();
    const published = booking({ title: null, attendee_name: 'Grace Hopper' });
    await published.created();
    await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the insert');
    expect(liveEvents(account).map((event) => event.summary)).toEqual(['Booking: Grace Hopper']);
  });

  it('when an event is delivered twice, or an older version comes after a newer one, then it has one effect', async () => {
    const { account, connection, booking } = await writingConnection();
    const published = booking();
    const id = await published.created();
    const created = published.state;
    await publishDomainEvent(running.neighbour, bookingCreatedEvent, created, { organizationId: published.organizationId, id });
    await published.cancelled();
    await waitForRow(connection.id, published.id, (row) => row.desired === 'absent' && row.status === 'synced', 'the delete');
    // A re-publish of the creation (a new event id, version 1) after the cancellation (version 2).
    await publishDomainEvent(running.neighbour, bookingCreatedEvent, created, { organizationId: published.organizationId });
    const marker = booking();
    await marker.created(); // handled after the late one (one consumer, in order)
    await waitForRow(connection.id, marker.id, (row) => row.status === 'synced', 'the marker');
    expect(liveEvents(account).map((event) => event.privateProperties.booking_id)).toEqual([marker.id]);
    expect((await writeRow(connection.id, published.id))?.booking_version).toBe(2);
  });

  it('when an event is malformed, then it is set aside (dead letter) and the events after it are applied', async () => {
    const { org, account, connection, booking } = await writingConnection();
    const broken = { ...bookingState(connection.schedule_id), start_time: 'tomorrow' };
    await publishDomainEvent(running.neighbour, bookingCreatedEvent, broken as never, { organizationId: org.id });
    const marker = booking();
    await marker.created();
    await waitForRow(connection.id, marker.id, (row) => row.status === 'synced', 'the event after the malformed one');
    expect(await writeRow(connection.id, broken.booking_id)).toBeUndefined();
    expect(liveEvents(account).map((event) => event.privateProperties.booking_id)).toEqual([marker.id]);
  });

  it("when the event names another organization than the schedule's connections, or the connection only reads, then nothing is written", async () => {
    const { account, connection, booking } = await writingConnection();
    const foreign = new PublishedBooking(running, randomUUID(), bookingState(connection.schedule_id));
    await foreign.created();
    const reader = fake.account();
    reader.google.set('primary', []);
    const org = newOrganization();
    const readOnly = await createConnection(running, org.headers, {
      provider: 'google',
      schedule_id: randomUUID(),
      credentials: reader.credentials(),
    });
    expect(readOnly.write_calendar_id).toBeNull();
    await new PublishedBooking(running, org.id, bookingState(readOnly.schedule_id)).created();
    const marker = booking();
    await marker.created();
    await waitForRow(connection.id, marker.id, (row) => row.status === 'synced', 'the marker');
    expect(await writeRow(connection.id, foreign.id)).toBeUndefined();
    expect(liveEvents(account)).toHaveLength(1);
    expect(reader.googleEvents.size).toBe(0);
  });

  it('when Google answers 500 beyond the retries, then the write shows failed, is retried with backoff, and is made once', async () => {
    const { account, connection, booking } = await writingConnection();
    const outage = Array.from({ length: 5 }, () => ({ status: 500, body: { error: { code: 500, message: 'Backend Error' } } }));
    fake.http.script('google.events.list', ...outage);
    const published = booking();
    await published.created();
    const failed = await waitForRow(connection.id, published.id, (row) => row.status === 'failed', 'the failure');
    expect(failed.last_error).toContain('Google Calendar answered 500');
    expect(failed.attempts).toBe(1);
    const states = await changedEvents(connection.id);
    expect(states.at(-1)).toMatchObject({ status: 'failed', event_id: null, last_error: expect.stringContaining('500') });

    await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the retry');
    expect(liveEvents(account)).toHaveLength(1);
    expect((await changedEvents(connection.id)).at(-1)).toMatchObject({ status: 'synced', last_error: null });
  });

  it('when Google answers 429 with a long Retry-After, then the write waits that long, is not lost, and is made once', async () => {
    const { account, connection, booking } = await writingConnection();
    fake.http.script('google.events.insert', {
      status: 429,
      headers: { 'retry-after': '3' },
      body: { error: { code: 429, message: 'Rate Limit Exceeded' } },
    });
    const published = booking();
    await published.created();
    const failed = await waitForRow(connection.id, published.id, (row) => row.status === 'failed', 'the throttled write');
    expect(failed.last_error).toContain('429');
    await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the write after Retry-After', 10_000);
    const inserts = fake.http.requestsTo('google.events.insert').filter((r) => r.body.includes(published.id));
    expect(inserts).toHaveLength(2);
    expect((inserts[1]?.at ?? 0) - (inserts[0]?.at ?? 0)).toBeGreaterThanOrEqual(3000);
    expect(liveEvents(account)).toHaveLength(1);
  });

  it('when an insert takes effect but answers after the client timed out, then the retry finds it: still exactly one event', async () => {
    const { account, connection, booking } = await writingConnection();
    fake.googleEventsApi.stallAfterEffect('google.events.insert', 2500);
    const published = booking();
    await published.created();
    const synced = await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the write');
    expect(fake.http.requestsTo('google.events.insert').filter((r) => r.body.includes(published.id))).toHaveLength(1);
    expect(liveEvents(account)).toEqual([expect.objectContaining({ id: synced.event_id })]);
    // The retry looked the event up by the booking id recorded in it, as Google's privateExtendedProperty filter.
    const lookups = fake.http.requestsTo('google.events.list').map((r) => new URL(r.url).searchParams);
    expect(lookups.some((query) => query.getAll('privateExtendedProperty').includes(`booking_id=${published.id}`))).toBe(true);
  });

  it('when the access token was revoked early, then it is refreshed once, the event is written and the new token stored', async () => {
    const before = new Date();
    const { account, connection, booking } = await writingConnection();
    await waitForSync(running, connection.id, before);
    fake.expireAccessToken(account);
    const refreshes = fake.http.requestsTo('google.token').length;
    const published = booking();
    await published.created();
    await waitForRow(connection.id, published.id, (row) => row.status === 'synced', 'the write');
    expect(liveEvents(account)).toHaveLength(1);
    expect(fake.http.requestsTo('google.token').length).toBe(refreshes + 1);
    expect((await storedTokens(running, connection.id)).accessToken).toBe(account.accessToken);
  });

  it('when the refresh token is refused, then the connection needs re-authorization and its writes stay pending', async () => {
    const before = new Date();
    const { org, account, connection, booking } = await writingConnection();
    await waitForSync(running, connection.id, before); // its first sync is done: the write meets the refusal itself
    fake.expireAccessToken(account);
    fake.revokeRefreshTokens(account);
    const published = booking();
    await published.created();
    const pending = await waitForRow(connection.id, published.id, (row) => row.last_error !== null, 'the refused refresh');
    expect(pending).toMatchObject({ status: 'pending', event_id: null, next_attempt_at: expect.any(Date) });
    expect(pending.last_error).toContain('invalid_grant');
    expect(await readConnection(running, org.headers, connection.id)).toMatchObject({ status: 'reauth_required' });
    const changed = await outboxEvents<{ status: string }>(running, 'calendar.connection.status_changed', connection.id);
    expect(changed.at(-1)).toMatchObject({ status: 'reauth_required' });
    const second = booking();
    await second.created();
    await waitForRow(connection.id, second.id, () => true, 'the second row');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await writeRow(connection.id, second.id)).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
    expect(liveEvents(account)).toHaveLength(0);
  });
});

describe('PATCH /api/v1/calendar-connections/{id}', () => {
  it('when write_calendar_id is set, then the ETag changes, bookings from then on are written, and a stale If-Match is 412', async () => {
    const account = fake.account();
    account.google.set('primary', []);
    account.google.set('team@example.com', []);
    const org = newOrganization();
    const created = new Date();
    const connection = await createConnection(running, org.headers, {
      provider: 'google',
      schedule_id: randomUUID(),
      credentials: account.credentials(),
    });
    await waitForSync(running, connection.id, created); // its sync changes the record (and the ETag) no more
    const url = `/api/v1/calendar-connections/${connection.id}`;
    const before = await running.app.inject({ url, headers: org.headers });
    const etag = String(before.headers.etag);
    const early = new PublishedBooking(running, org.id, bookingState(connection.schedule_id));
    await early.created();

    const patched = await running.app.inject({
      method: 'PATCH',
      url,
      headers: { ...org.headers, 'if-match': etag },
      payload: { write_calendar_id: 'team@example.com' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ data: { id: connection.id, write_calendar_id: 'team@example.com' } });
    expect(patched.headers.etag).not.toBe(etag);
    const stale = await running.app.inject({
      method: 'PATCH',
      url,
      headers: { ...org.headers, 'if-match': etag },
      payload: { write_calendar_id: null },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect((await readConnection(running, org.headers, connection.id)).write_calendar_id).toBe('team@example.com');

    const later = new PublishedBooking(running, org.id, bookingState(connection.schedule_id));
    await later.created();
    await waitForRow(connection.id, later.id, (row) => row.status === 'synced', 'the write to team@example.com');
    expect(liveEvents(account, 'team@example.com').map((event) => event.privateProperties.booking_id)).toEqual([later.id]);
    expect(await writeRow(connection.id, early.id)).toBeUndefined();

    const cleared = await running.app.inject({ method: 'PATCH', url, headers: org.headers, payload: { write_calendar_id: null } });
    expect(cleared.json()).toMatchObject({ data: { write_calendar_id: null } });
  });

  it('when the body is invalid or the connection unknown, then 400 VALIDATION_ERROR naming the field, or 404', async () => {
    const org = newOrganization();
    const account = fake.account();
    account.google.set('primary', []);
    const connection = await createConnection(running, org.headers, {
      provider: 'google',
      schedule_id: randomUUID(),
      credentials: account.credentials(),
    });
    const url = `/api/v1/calendar-connections/${connection.id}`;
    for (const payload of [{ write_calendar_id: '' }, { write_calendar_id: 42 }, { calendar_ids: ['x'] }]) {
      const response = await running.app.inject({ method: 'PATCH', url, headers: org.headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: expect.any(String) })] });
    }
    const other = await running.app.inject({
      method: 'PATCH',
      url,
      headers: newOrganization().headers,
      payload: { write_calendar_id: 'primary' },
    });
    expect(other.statusCode).toBe(404);
  });
});
