import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { connect } from 'node:net';
import { FakeIcsServer, FakeProviders, FileDatabase, type RunningService } from '@app/service-testing';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { iso, vcalendar, vevent } from './support/ics.js';
import { createConnection, newOrganization, outboxEvents, startCalendarSync, waitForSync } from './support/harness.js';

/** What the test's resolver answers: one public name, and names of loopback and private addresses. */
const answers = new Map<string, LookupAddress[]>([
  ['public.test', [{ address: '93.184.216.34', family: 4 }]],
  ['localhost', [{ address: '127.0.0.1', family: 4 }]],
  ['internal.test', [{ address: '10.0.0.5', family: 4 }]],
]);
/** `rebind.test` answers a public address to the create check and loopback afterwards (DNS rebinding). */
let rebindLookups = 0;
const resolve = async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === 'rebind.test') {
    rebindLookups += 1;
    return [{ address: rebindLookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  }
  const known = answers.get(hostname);
  if (known) return known;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const fake = new FakeProviders();
const feeds = new FakeIcsServer();
const database = FileDatabase.create();
let running: RunningService<Config>;
let toFeeds: Agent;
/** The same rules with the service's own agent (its guarded lookup), on a database of its own. */
const guardedDatabase = FileDatabase.create();
let guarded: RunningService<Config>;

beforeAll(async () => {
  await fake.start();
  await feeds.start();
  // `https://public.test` names this machine's fake file server: every connection of feed requests goes to it, in plain
  // text (no request leaves the machine). What is tested here is the create check and the check of each redirect,
  // both through the resolver above; the check at connect is the kit's guardedLookup (its unit tests).
  const port = Number(new URL(feeds.url).port);
  toFeeds = new Agent({
    connect: (_options, callback) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
  running = await startCalendarSync(
    fake,
    database,
    { CALENDAR_ICS_ALLOW_HTTP: 'false', CALENDAR_ICS_ALLOW_PRIVATE_TARGETS: 'false' },
    {},
    { ics: { resolve, dispatcher: toFeeds } },
  );
  guarded = await startCalendarSync(
    fake,
    guardedDatabase,
    { CALENDAR_ICS_ALLOW_HTTP: 'false', CALENDAR_ICS_ALLOW_PRIVATE_TARGETS: 'false' },
    {},
    { ics: { resolve } },
  );
});
afterAll(async () => {
  await guarded.stop();
  await guardedDatabase.drop();
  await running.stop();
  await toFeeds.close();
  await feeds.stop();
  await fake.stop();
  await database.drop();
});

const REFUSED = 'url must be a public http(s) address';

/** An hour three days from now (within the sync's range), as a VEVENT's lines and as the window it blocks. */
const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const EVENT = vevent('UID:a', `DTSTART:${day.replaceAll('-', '')}T150000Z`, `DTEND:${day.replaceAll('-', '')}T160000Z`);
const WINDOW = iso(`${day}T15:00:00Z`, `${day}T16:00:00Z`);

describe('ICS URLs with CALENDAR_ICS_ALLOW_HTTP=false and CALENDAR_ICS_ALLOW_PRIVATE_TARGETS=false', () => {
  it.each([
    ['plain http', 'http://public.test/a.ics', 'url must be https'],
    ['a loopback address', 'https://127.0.0.1/a.ics', REFUSED],
    ['the metadata address', 'https://169.254.169.254/latest', REFUSED],
    ['an IPv4-mapped private address', 'https://[::ffff:10.0.0.1]/a.ics', REFUSED],
    ['a name resolving to loopback', 'https://localhost/a.ics', REFUSED],
    ['a name resolving to a private address', 'https://internal.test/a.ics', REFUSED],
    ['a name that does not resolve', 'https://nowhere.test/a.ics', REFUSED],
  ])('when the URL is %s (%s), then create is 400 "%s" naming url', async (_kind, url, message) => {
    const payload = { provider: 'ics', schedule_id: randomUUID(), url };
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message, code: 'VALIDATION_ERROR', details: [{ path: 'url', message }] });
  });

  it('when the URL is a public https address, then the connection is created and read', async () => {
    const path = `/feeds/${randomUUID()}.ics`;
    feeds.serve(path, vcalendar(...EVENT));
    const { row } = await connectFeed(`https://public.test${path}`);
    expect(row).toMatchObject({ status: 'active', last_error: null });
    expect(feeds.requestsTo(path)).toHaveLength(1);
  });
});

async function connectFeed(url: string) {
  const org = newOrganization();
  const before = new Date();
  const connection = await createConnection(running, org.headers, { provider: 'ics', schedule_id: randomUUID(), url });
  return { connection, row: await waitForSync(running, connection.id, before) };
}

describe('ICS redirects with private targets refused', () => {
  it.each([
    ['a loopback address', 'https://127.0.0.1/internal.ics', '127.0.0.1', 'the target must be a public http(s) address'],
    [
      'a name resolving to a private address',
      'https://internal.test/internal.ics',
      'internal.test',
      'the target must be a public http(s) address',
    ],
    ['plain http', 'http://public.test/a.ics', 'public.test', 'the target must be https'],
  ])('when the feed redirects to %s (%s), then it is not followed and the sync fails saying why', async (_kind, location, host, reason) => {
    const path = `/moved/${randomUUID()}.ics`;
    const { connection, row } = await connectFeed(`https://public.test${feeds.redirect(path, location).slice(feeds.url.length)}`);
    expect(row.status).toBe('error');
    expect(row.last_error).toBe(`The ICS feed redirected to ${host}, which is refused: ${reason}`);
    expect(feeds.requestsTo(path)).toHaveLength(1);
    expect(await outboxEvents(running, 'calendar.busy.updated', connection.id)).toHaveLength(0);
  });

  it('when the feed redirects to another public https address, then the target is read', async () => {
    const target = `/feeds/${randomUUID()}.ics`;
    feeds.serve(target, vcalendar(...EVENT));
    const path = `/moved/${randomUUID()}.ics`;
    feeds.redirect(path, `https://public.test${target}`, 308);
    const { connection, row } = await connectFeed(`https://public.test${path}`);
    expect(row.status).toBe('active');
    expect(feeds.requestsTo(target)).toHaveLength(1);
    const events = await outboxEvents<{ windows: unknown[] }>(running, 'calendar.busy.updated', connection.id);
    expect(events.map((event) => event.windows)).toEqual([[WINDOW]]);
  });
});

describe('ICS connections at connect time (the guarded lookup of the service)', () => {
  it('when the name resolves to loopback after the create check (DNS rebinding), then the connection is refused', async () => {
    const org = newOrganization();
    const before = new Date();
    const connection = await createConnection(guarded, org.headers, {
      provider: 'ics',
      schedule_id: randomUUID(),
      url: 'https://rebind.test/a.ics',
    });
    const row = await waitForSync(guarded, connection.id, before);
    expect(row.status).toBe('error');
    expect(row.last_error).toBe("The ICS feed's address is refused: rebind.test resolves to 127.0.0.1, not a public address");
    expect(rebindLookups).toBeGreaterThanOrEqual(2);
  });
});
