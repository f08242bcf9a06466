import { randomUUID } from 'node:crypto';
import { FakeIcsServer, FakeProviders, FileDatabase, type RunningService } from '@app/service-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { openFeedUrl, sealFeedUrl } from '../src/domain/connection-feed.js';
import { parseKeyRing } from '../src/domain/token-cipher.js';
import { iso, vcalendar, vevent } from './support/ics.js';
import {
  connectionRow,
  createConnection,
  newOrganization,
  outboxEvents,
  readConnection,
  startCalendarSync,
  TEST_KEY_RING,
  waitForSync,
} from './support/harness.js';

interface BusyUpdated {
  range: { start: string; end: string };
  windows: { start: string; end: string }[];
}

/**
 * The service's clock runs from 2027-02-20, so that its 62 days of sync cover both DST changes of 2027: America/New_York
 * on 14 March, Europe/Berlin on 28 March. The fake schedule is in America/New_York.
 */
const CLOCK_START = Date.parse('2027-02-20T12:00:00Z');
const started = Date.now();
const now = () => new Date(CLOCK_START + (Date.now() - started));

const fake = new FakeProviders();
const feeds = new FakeIcsServer();
const database = FileDatabase.create();
let running: RunningService<Config>;

beforeAll(async () => {
  await fake.start();
  await feeds.start();
  running = await startCalendarSync(fake, database, { CALENDAR_ICS_MAX_BYTES: '65536' }, {}, { now });
});
afterAll(async () => {
  await running.stop();
  await feeds.stop();
  await fake.stop();
  await database.drop();
});

/** Connects the feed at `url` to a schedule of a new organization and waits for its first sync. */
async function connectFeed(url: string) {
  const org = newOrganization();
  const before = new Date();
  const connection = await createConnection(running, org.headers, { provider: 'ics', schedule_id: randomUUID(), url });
  const row = await waitForSync(running, connection.id, before);
  return { org, connection, row };
}

async function syncNow(id: string, headers: Record<string, string>) {
  const before = new Date();
  const response = await running.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${id}/sync`, headers });
  expect(response.statusCode).toBe(202);
  return waitForSync(running, id, before);
}

async function publishedWindows(connectionId: string): Promise<BusyUpdated['windows'][]> {
  return (await outboxEvents<BusyUpdated>(running, 'calendar.busy.updated', connectionId)).map((event) => event.windows);
}

/** A feed of its own, served at a path of its own. */
function serveFeed(text: string, validators?: { etag?: string | null; lastModified?: string | null }): { path: string; url: string } {
  const path = `/feeds/${randomUUID()}/basic.ics`;
  return { path, url: feeds.serve(path, text, validators) };
}

describe('POST /api/v1/calendar-connections (provider ics)', () => {
  it('when write-back is asked of an ICS connection, then 400 naming write_calendar_id: a feed is read only', async () => {
    const { url } = serveFeed(vcalendar());
    const org = newOrganization();
    const created = await running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: org.headers,
      payload: { provider: 'ics', schedule_id: randomUUID(), url },
    });
    const id = String((created.json() as { data: { id: string } }).data.id);
    const patch = (write_calendar_id: string | null) =>
      running.app.inject({
        method: 'PATCH',
        url: `/api/v1/calendar-connections/${id}`,
        headers: org.headers,
        payload: { write_calendar_id },
      });

    const refused = await patch('primary');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'write_calendar_id' }] });
    const cleared = await patch(null);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ data: { id, write_calendar_id: null } });
  });

  it('when the body has a feed URL, then 201 with calendar_ids ["ics"], and the URL is stored encrypted and never shown', async () => {
    const { url } = serveFeed(vcalendar());
    const org = newOrganization();
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: org.headers,
      payload: { provider: 'ics', schedule_id: randomUUID(), url },
    });
    expect(response.statusCode).toBe(201);
    const data = (response.json() as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({ provider: 'ics', calendar_ids: ['ics'], status: 'active', last_error: null });
    expect(Object.keys(data).sort()).toEqual([
      'calendar_ids',
      'created_at',
      'id',
      'last_error',
      'last_synced_at',
      'provider',
      'schedule_id',
      'status',
      'write_calendar_id',
    ]);
    expect(data.write_calendar_id).toBeNull();
    const { rows } = await running.infra.pool.query<{ dump: string; tokens: null }>(
      `SELECT row_to_json(c)::text || encode(c.ics_url_cipher, 'escape') AS dump, c.access_token_cipher AS tokens
         FROM calendar_sync.calendar_connections c WHERE id = $1`,
      [data.id],
    );
    expect(rows[0]?.dump).not.toContain(new URL(url).pathname);
    expect(rows[0]?.tokens).toBeNull();
    const shown = await running.app.inject({ url: `/api/v1/calendar-connections/${String(data.id)}`, headers: org.headers });
    expect(shown.body).not.toContain(new URL(url).pathname);
  });

  it.each([
    [{ url: undefined }, 'url is required'],
    [{ url: 'not a url' }, 'url must be an absolute URL'],
    [{ url: 'ftp://calendar.example.com/a.ics' }, 'url must be http(s)'],
    [{ url: 'https://user:pw@calendar.example.com/a.ics' }, 'url must not carry credentials'],
    [{ credentials: { access_token: 'a', refresh_token: 'r', expires_at: '2030-01-01T00:00:00Z' } }, 'body has unknown field credentials'],
    [{ calendar_ids: ['primary'] }, 'body has unknown field calendar_ids'],
    [{ schedule_id: undefined }, 'schedule_id is required'],
  ])('when the ics body is changed by %j, then 400 "%s"', async (overrides, message) => {
    const payload = { provider: 'ics', schedule_id: randomUUID(), url: feeds.urlOf('/x.ics'), ...overrides };
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
  });

  it('when the provider is unknown, then 400 naming the providers', async () => {
    const payload = { provider: 'caldav', schedule_id: randomUUID(), url: feeds.urlOf('/x.ics') };
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload,
    });
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'provider must be google, outlook or ics' });
  });

  it('when listing with provider=ics, then only the ICS connections', async () => {
    const org = newOrganization();
    const feed = await createConnection(running, org.headers, {
      provider: 'ics',
      schedule_id: randomUUID(),
      url: serveFeed(vcalendar()).url,
    });
    const response = await running.app.inject({ url: '/api/v1/calendar-connections?provider=ics', headers: org.headers });
    expect((response.json() as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([feed.id]);
  });
});

describe('ICS sync', () => {
  it('when the feed has timed, all-day and floating events, then calendar.busy.updated carries their windows', async () => {
    const { url } = serveFeed(
      vcalendar(
        ...vevent('UID:timed', 'DTSTART:20270222T150000Z', 'DTEND:20270222T160000Z'),
        // An all-day day of the schedule's zone (New York, EST).
        ...vevent('UID:day', 'DTSTART;VALUE=DATE:20270224', 'DTEND;VALUE=DATE:20270225'),
        // Floating: 09:00 in the schedule's zone.
        ...vevent('UID:floating', 'DTSTART:20270226T090000', 'DTEND:20270226T093000'),
        ...vevent('UID:past', 'DTSTART:20270101T150000Z', 'DTEND:20270101T160000Z'),
      ),
    );
    const { org, connection, row } = await connectFeed(url);
    expect(row.status).toBe('active');
    expect(await publishedWindows(connection.id)).toEqual([
      [
        iso('2027-02-22T15:00:00Z', '2027-02-22T16:00:00Z'),
        iso('2027-02-24T05:00:00Z', '2027-02-25T05:00:00Z'),
        iso('2027-02-26T14:00:00Z', '2027-02-26T14:30:00Z'),
      ],
    ]);
    const shown = await readConnection(running, org.headers, connection.id);
    expect(shown).toMatchObject({ status: 'active', last_error: null, last_synced_at: expect.any(String) });
  });

  it.each([
    // 09:00 local is 08:00Z before 28 March and 07:00Z after.
    ['Europe/Berlin', ['2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z', '2027-04-05T07:00:00Z']],
    // 09:00 local is 14:00Z before 14 March and 13:00Z after.
    ['America/New_York', ['2027-03-08T14:00:00Z', '2027-03-15T13:00:00Z', '2027-03-22T13:00:00Z']],
  ])('when a weekly 09:00 event in %s crosses its DST change, then every occurrence blocks 09:00 local', async (zone, starts) => {
    const first = new Date(starts[0] ?? '').toISOString().slice(0, 10).replaceAll('-', '');
    const { url } = serveFeed(
      vcalendar(
        ...vevent('UID:weekly', `DTSTART;TZID=${zone}:${first}T090000`, `DTEND;TZID=${zone}:${first}T100000`, 'RRULE:FREQ=WEEKLY;COUNT=3'),
      ),
    );
    const { connection } = await connectFeed(url);
    expect(await publishedWindows(connection.id)).toEqual([
      starts.map((start) => iso(start, new Date(Date.parse(start) + 3600_000).toISOString())),
    ]);
  });

  it('when a series has an EXDATE and a RECURRENCE-ID override moving one occurrence, then the windows follow them', async () => {
    const { url } = serveFeed(
      vcalendar(
        ...vevent(
          'UID:standup',
          'DTSTART;TZID=Europe/Berlin:20270301T090000',
          'DTEND;TZID=Europe/Berlin:20270301T093000',
          'RRULE:FREQ=DAILY;COUNT=4',
          'EXDATE;TZID=Europe/Berlin:20270302T090000',
        ),
        ...vevent(
          'UID:standup',
          'RECURRENCE-ID;TZID=Europe/Berlin:20270303T090000',
          'DTSTART;TZID=Europe/Berlin:20270303T140000',
          'DTEND;TZID=Europe/Berlin:20270303T150000',
        ),
      ),
    );
    const { connection } = await connectFeed(url);
    expect(await publishedWindows(connection.id)).toEqual([
      [
        iso('2027-03-01T08:00:00Z', '2027-03-01T08:30:00Z'),
        iso('2027-03-03T13:00:00Z', '2027-03-03T14:00:00Z'),
        iso('2027-03-04T08:00:00Z', '2027-03-04T08:30:00Z'),
      ],
    ]);
  });

  it('when events are TRANSPARENT or CANCELLED, or an override cancels one occurrence, then they do not block', async () => {
    const { url } = serveFeed(
      vcalendar(
        ...vevent('UID:free', 'DTSTART:20270301T150000Z', 'DTEND:20270301T160000Z', 'TRANSP:TRANSPARENT'),
        ...vevent('UID:off', 'DTSTART:20270302T150000Z', 'DTEND:20270302T160000Z', 'STATUS:CANCELLED'),
        ...vevent('UID:series', 'DTSTART:20270303T150000Z', 'DTEND:20270303T160000Z', 'RRULE:FREQ=DAILY;COUNT=2'),
        ...vevent('UID:series', 'RECURRENCE-ID:20270304T150000Z', 'DTSTART:20270304T150000Z', 'DTEND:20270304T160000Z', 'STATUS:CANCELLED'),
      ),
    );
    const { connection } = await connectFeed(url);
    expect(await publishedWindows(connection.id)).toEqual([[iso('2027-03-03T15:00:00Z', '2027-03-03T16:00:00Z')]]);
  });

  it('when the feed has not changed, then the next sync sends its validators, the 304 keeps the windows and counts as a sync', async () => {
    const { path, url } = serveFeed(vcalendar(...vevent('UID:a', 'DTSTART:20270301T150000Z', 'DTEND:20270301T160000Z')));
    const { org, connection, row } = await connectFeed(url);
    const first = feeds.requestsTo(path);
    expect(first).toEqual([{ path, ifNoneMatch: undefined, ifModifiedSince: undefined, status: 200 }]);
    const again = await syncNow(connection.id, org.headers);
    const second = feeds.requestsTo(path).at(-1);
    expect(second?.ifNoneMatch).toMatch(/^"v\d+"$/);
    expect(second?.ifModifiedSince).toMatch(/GMT$/);
    expect(second?.status).toBe(304);
    expect(again).toMatchObject({ status: 'active', last_error: null });
    expect(again.last_synced_at?.getTime()).toBeGreaterThan(row.last_synced_at?.getTime() ?? Infinity);
    const windows = await publishedWindows(connection.id);
    expect(windows).toHaveLength(2);
    expect(windows[1]).toEqual(windows[0]);
    expect(windows[1]).toEqual([iso('2027-03-01T15:00:00Z', '2027-03-01T16:00:00Z')]);

    // A new version is read in full again, and replaces the windows.
    feeds.serve(path, vcalendar(...vevent('UID:a', 'DTSTART:20270302T150000Z', 'DTEND:20270302T160000Z')));
    await syncNow(connection.id, org.headers);
    expect(feeds.requestsTo(path).at(-1)?.status).toBe(200);
    expect((await publishedWindows(connection.id)).at(-1)).toEqual([iso('2027-03-02T15:00:00Z', '2027-03-02T16:00:00Z')]);
  });

  it('when the feed has only Last-Modified, then If-Modified-Since alone gets the 304', async () => {
    const { path, url } = serveFeed(vcalendar(...vevent('UID:a', 'DTSTART:20270301T150000Z', 'DTEND:20270301T160000Z')), { etag: null });
    const { org, connection } = await connectFeed(url);
    await syncNow(connection.id, org.headers);
    expect(feeds.requestsTo(path).at(-1)).toMatchObject({
      ifNoneMatch: undefined,
      ifModifiedSince: expect.stringMatching(/GMT$/),
      status: 304,
    });
    expect(await publishedWindows(connection.id)).toHaveLength(2);
  });

  it.each([
    ['streamed without a length', false],
    ['declared by Content-Length', true],
  ])(
    'when the feed grows past CALENDAR_ICS_MAX_BYTES (%s), then the sync fails clearly and the last windows keep blocking',
    async (_kind, declared) => {
      const { path, url } = serveFeed(vcalendar(...vevent('UID:a', 'DTSTART:20270301T150000Z', 'DTEND:20270301T160000Z')));
      const { org, connection } = await connectFeed(url);
      feeds.oversize(path, 20 * 1024 * 1024, declared);
      const row = await syncNow(connection.id, org.headers);
      expect(row.status).toBe('error');
      expect(row.last_error).toBe('The ICS feed is larger than 65536 bytes (CALENDAR_ICS_MAX_BYTES)');
      expect(await publishedWindows(connection.id)).toHaveLength(1);
      const { rows } = await running.infra.pool.query<{ windows: unknown }>(
        'SELECT windows FROM calendar_sync.calendar_states WHERE connection_id = $1',
        [connection.id],
      );
      expect(rows).toEqual([{ windows: [iso('2027-03-01T15:00:00Z', '2027-03-01T16:00:00Z')] }]);
    },
  );

  it('when the feed answers 404 or is no iCalendar, then status error with last_error saying so', async () => {
    const missing = await connectFeed(feeds.status(`/feeds/${randomUUID()}.ics`, 404));
    expect(missing.row).toMatchObject({ status: 'error', last_error: 'The ICS feed answered HTTP 404' });
    const html = await connectFeed(serveFeed('<html>Sign in</html>').url);
    expect(html.row.status).toBe('error');
    expect(html.row.last_error).toMatch(/^The feed is not valid iCalendar/);
    expect((await connectionRow(running, html.connection.id))?.last_synced_at).toBeNull();
  });

  it('when the feed redirects, then the redirect is followed (each hop checked) and the target read', async () => {
    const { url: target } = serveFeed(vcalendar(...vevent('UID:a', 'DTSTART:20270301T150000Z', 'DTEND:20270301T160000Z')));
    const { connection, row } = await connectFeed(feeds.redirect(`/moved/${randomUUID()}.ics`, new URL(target).pathname, 301));
    expect(row.status).toBe('active');
    expect(await publishedWindows(connection.id)).toEqual([[iso('2027-03-01T15:00:00Z', '2027-03-01T16:00:00Z')]]);
  });

  it('when the feed redirects in a loop, then the sync stops after 5 redirects with a clear last_error', async () => {
    const path = `/loop/${randomUUID()}.ics`;
    const { row } = await connectFeed(feeds.redirect(path, path));
    expect(row).toMatchObject({ status: 'error', last_error: 'The ICS feed redirected more than 5 times' });
    expect(feeds.requestsTo(path)).toHaveLength(6);
  });

  it('when the URL is under an older key, then the next sync re-encrypts it with the current key', async () => {
    const { path, url } = serveFeed(vcalendar());
    const { org, connection } = await connectFeed(url);
    const ring = parseKeyRing(TEST_KEY_RING);
    const older = { ...ring, current: { id: 'k1', key: ring.keys.get('k1') ?? Buffer.alloc(0) } };
    const sealed = sealFeedUrl(older, connection.id, url);
    await running.infra.pool.query('UPDATE calendar_sync.calendar_connections SET token_key_id = $2, ics_url_cipher = $3 WHERE id = $1', [
      connection.id,
      sealed.tokenKeyId,
      Buffer.from(sealed.icsUrlCipher),
    ]);
    await syncNow(connection.id, org.headers);
    expect(feeds.requestsTo(path).length).toBeGreaterThanOrEqual(2);
    const { rows } = await running.infra.pool.query<{ token_key_id: string; ics_url_cipher: Buffer }>(
      'SELECT token_key_id, ics_url_cipher FROM calendar_sync.calendar_connections WHERE id = $1',
      [connection.id],
    );
    const row = rows[0];
    expect(row?.token_key_id).toBe('k2');
    expect(
      row && openFeedUrl(ring, connection.id, { tokenKeyId: row.token_key_id, icsUrlCipher: new Uint8Array(row.ics_url_cipher) }),
    ).toBe(url);
  });
});
