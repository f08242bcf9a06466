import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { bookingFeedRequest, scheduleGetRequest, type BookingFeedItem } from '@app/contracts';
import { scheduleNotFound } from '@app/service-kit';
import {
  anonymousHeaders,
  FakeProviders,
  FileDatabase,
  fakeResponder,
  organizationHeaders,
  ownNatsPrefix,
  type FakeResponder,
  type RunningService,
} from '@app/service-testing';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { startCalendarSync } from './support/harness.js';

const PUBLIC_BASE_URL = 'https://book.example.com';
const DAY_MS = 86_400_000;

/**
 * Scheduling and bookings faked at their NATS boundary on this file's own prefix, with state: schedules belong to
 * one organization (scheduling's SCHEDULE_NOT_FOUND for any other), and each schedule has the bookings a test gives it.
 */
class Neighbours {
  readonly schedules = new Map<string, string>();
  readonly bookings = new Map<string, BookingFeedItem[]>();

  constructor(readonly responder: FakeResponder) {}

  async answer(): Promise<void> {
    await this.responder.answer(scheduleGetRequest, (request) => {
      if (this.schedules.get(request.schedule_id.toLowerCase()) !== request.organization_id) throw scheduleNotFound();
      const id = request.schedule_id.toLowerCase();
      return { id, name: 'Desk', timezone: 'Europe/Berlin', slot_duration: 30, buffer_before: 0, buffer_after: 0, is_active: true };
    });
    await this.responder.answer(bookingFeedRequest, (request) => {
      const own = this.schedules.get(request.schedule_id) === request.organization_id;
      return { bookings: own ? (this.bookings.get(request.schedule_id) ?? []) : [], next: null };
    });
  }

  schedule(organizationId: string, bookings: BookingFeedItem[] = []): string {
    const id = randomUUID();
    this.schedules.set(id, organizationId);
    this.bookings.set(id, bookings);
    return id;
  }
}

function booking(overrides: Partial<BookingFeedItem> = {}): BookingFeedItem {
  const start = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + 2 * DAY_MS + 9 * 3_600_000);
  return {
    booking_id: randomUUID(),
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 30 * 60_000).toISOString(),
    status: 'PENDING',
    summary: 'Booking: Ada Lovelace',
    version: 1,
    updated_at: new Date(Date.now() - 60_000).toISOString(),
    ...overrides,
  };
}

/** The VEVENTs of an ICS body as ical.js reads them: the second library that checks what ical-generator wrote. */
function parsedEvents(body: string) {
  const calendar = new ICAL.Component(ICAL.parse(body));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      startIsUtc: event.startDate.zone?.tzid === 'UTC',
      endIsUtc: event.endDate.zone?.tzid === 'UTC',
      status: vevent.getFirstPropertyValue('status'),
      sequence: event.sequence,
      stamp: String(vevent.getFirstPropertyValue('dtstamp')),
    };
  });
}

describe('ICS feeds', () => {
  const fake = new FakeProviders();
  const database = FileDatabase.create();
  let running: RunningService<Config>;
  let neighbours: Neighbours;

  beforeAll(async () => {
    const prefix = ownNatsPrefix('ics');
    neighbours = new Neighbours(await fakeResponder(prefix));
    await neighbours.answer();
    await fake.start();
    running = await startCalendarSync(fake, database, { NATS_PREFIX: prefix, PUBLIC_BASE_URL });
  });
  afterAll(async () => {
    await running?.stop();
    await neighbours?.responder.stop();
    await fake.stop();
    await database.drop();
  });

  const organization = () => {
    const id = randomUUID();
    return { id, headers: organizationHeaders(id) };
  };
  const create = (headers: Record<string, string>, scheduleId: string) =>
    running.app.inject({ method: 'POST', url: `/api/v1/schedules/${scheduleId}/ics-feed`, headers });
  const remove = (headers: Record<string, string>, scheduleId: string) =>
    running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${scheduleId}/ics-feed`, headers });
  /** The feed's URL, made by its POST. */
  const feedOf = async (headers: Record<string, string>, scheduleId: string): Promise<string> => {
    const response = await create(headers, scheduleId);
    expect(response.statusCode).toBe(201);
    return (response.json() as { data: { url: string } }).data.url;
  };
  /** GET of a feed URL as the gateway forwards it: no organization (the token is all there is). */
  const read = (url: string, headers: Record<string, string> = {}) =>
    running.app.inject({ url: new URL(url).pathname, headers: { ...anonymousHeaders(), ...headers } });

  describe('POST /api/v1/schedules/{id}/ics-feed', () => {
    it('when the schedule is the organization’s, then 201 with a secret URL under PUBLIC_BASE_URL, of which only a hash is kept', async () => {
      const org = organization();
      const scheduleId = neighbours.schedule(org.id);
      const response = await create(org.headers, scheduleId);
      expect(response.statusCode).toBe(201);
      const { url } = (response.json() as { data: { url: string } }).data;
      const token = /^https:\/\/book\.example\.com\/ics\/([A-Za-z0-9_-]{43})\.ics$/.exec(url)?.[1];
      expect(token).toBeDefined();
      const { rows } = await running.infra.pool.query<{ organization_id: string; token_hash: Buffer; dump: string }>(
        'SELECT organization_id, token_hash, row_to_json(f)::text AS dump FROM calendar_sync.ics_feeds f WHERE schedule_id = $1',
        [scheduleId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.organization_id).toBe(org.id);
      expect(
        rows[0]?.token_hash.equals(
          createHash('sha256')
            .update(token ?? '')
            .digest(),
        ),
      ).toBe(true);
      expect(rows[0]?.dump).not.toContain(token);
    });

    it('when two feeds are made, then their tokens differ', async () => {
      const org = organization();
      const [a, b] = await Promise.all([
        feedOf(org.headers, neighbours.schedule(org.id)),
        feedOf(org.headers, neighbours.schedule(org.id)),
      ]);
      expect(a).not.toBe(b);
    });

    it('when the schedule is unknown or another organization’s, then 404 SCHEDULE_NOT_FOUND and no feed', async () => {
      const org = organization();
      const foreign = neighbours.schedule(randomUUID());
      for (const scheduleId of [randomUUID(), foreign, 'not-a-uuid']) {
        const response = await create(org.headers, scheduleId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND', error: 'Schedule not found or inactive' });
      }
      const { rows } = await running.infra.pool.query('SELECT 1 FROM calendar_sync.ics_feeds WHERE schedule_id = $1', [foreign]);
      expect(rows).toEqual([]);
    });

    it('when POSTed again, then the URL is replaced: the old one is 404, the new one serves the feed', async () => {
      const org = organization();
      const scheduleId = neighbours.schedule(org.id, [booking()]);
      const first = await feedOf(org.headers, scheduleId);
      expect((await read(first)).statusCode).toBe(200);
      const second = await feedOf(org.headers, scheduleId);
      expect(second).not.toBe(first);
      const old = await read(first);
      expect(old.statusCode).toBe(404);
      expect(old.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
      expect((await read(second)).statusCode).toBe(200);
    });
  });

  describe('DELETE /api/v1/schedules/{id}/ics-feed', () => {
    it('when the schedule has a feed, then 200 and its URL is 404; a second DELETE is 404', async () => {
      const org = organization();
      const scheduleId = neighbours.schedule(org.id, [booking()]);
      const url = await feedOf(org.headers, scheduleId);
      const deleted = await remove(org.headers, scheduleId);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ data: { schedule_id: scheduleId, deleted: true } });
      expect((await read(url)).statusCode).toBe(404);
      const again = await remove(org.headers, scheduleId);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
    });

    it('when another organization deletes it, then 404 and the feed still serves', async () => {
      const org = organization();
      const scheduleId = neighbours.schedule(org.id, [booking()]);
      const url = await feedOf(org.headers, scheduleId);
      const response = await remove(organization().headers, scheduleId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await remove(org.headers, 'not-a-uuid')).statusCode).toBe(404);
      expect((await read(url)).statusCode).toBe(200);
    });
  });

  describe('GET /ics/<token>.ics', () => {
    it('when read, then an RFC 5545 calendar with one event per booking: UID, UTC times, STATUS, SEQUENCE, DTSTAMP', async () => {
      const org = organization();
      const pending = booking();
      const confirmed = booking({
        start_time: new Date(Date.parse(pending.start_time) + DAY_MS).toISOString(),
        end_time: new Date(Date.parse(pending.end_time) + DAY_MS).toISOString(),
        status: 'CONFIRMED',
        summary: 'Intro call',
        version: 2,
      });
      const scheduleId = neighbours.schedule(org.id, [pending, confirmed]);
      const response = await read(await feedOf(org.headers, scheduleId));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
      expect(parsedEvents(response.body)).toEqual([
        {
          uid: `${pending.booking_id}@book.example.com`,
          summary: 'Booking: Ada Lovelace',
          start: pending.start_time,
          end: pending.end_time,
          startIsUtc: true,
          endIsUtc: true,
          status: 'TENTATIVE',
          sequence: 0,
          stamp: pending.updated_at.replace(/\.\d{3}Z$/, 'Z'),
        },
        {
          uid: `${confirmed.booking_id}@book.example.com`,
          summary: 'Intro call',
          start: confirmed.start_time,
          end: confirmed.end_time,
          startIsUtc: true,
          endIsUtc: true,
          status: 'CONFIRMED',
          sequence: 1,
          stamp: confirmed.updated_at.replace(/\.\d{3}Z$/, 'Z'),
        },
      ]);
      // In UTC on the wire, not in a zone of the schedule's.
      const compact = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      expect(response.body).toContain(`\r\nDTSTART:${compact(pending.start_time)}\r\n`);
      expect(response.body).toContain(`\r\nDTEND:${compact(pending.end_time)}\r\n`);
    });

    it('when bookings are asked for, then the window is from 30 days ago to 365 days ahead, for the feed’s organization', async () => {
      const org = organization();
      const scheduleId = neighbours.schedule(org.id);
      const url = await feedOf(org.headers, scheduleId);
      neighbours.responder.forget();
      const before = Date.now();
      await read(url);
      const [asked] = neighbours.responder.received(bookingFeedRequest);
      expect(asked?.request).toMatchObject({ organization_id: org.id, schedule_id: scheduleId, after: null });
      const from = Date.parse(asked?.request.from ?? '');
      const to = Date.parse(asked?.request.to ?? '');
      expect(from).toBeGreaterThanOrEqual(before - 30 * DAY_MS - 1000);
      expect(from).toBeLessThanOrEqual(Date.now() - 30 * DAY_MS);
      expect(to - from).toBe(395 * DAY_MS);
    });

    it('when the title has commas, semicolons, backslashes and newlines, then it is escaped, and long lines are folded', async () => {
      const org = organization();
      const title = `Review; budget, Q3\\Q4\nsecond line — ${'é'.repeat(30)} ${'long words '.repeat(12)}`.trim();
      const item = booking({ summary: title });
      const response = await read(await feedOf(org.headers, neighbours.schedule(org.id, [item])));
      expect(response.body).toContain('SUMMARY:Review\\; budget\\, Q3\\\\Q4\\nsecond line');
      const lines = response.body.split('\r\n');
      // RFC 5545 §3.1: no line longer than 75 octets; the summary is long enough to need folding.
      expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
      expect(lines.some((line) => line.startsWith(' '))).toBe(true);
      expect(parsedEvents(response.body)[0]?.summary).toBe(title);
    });

    it('when a booking changes (its status, then its time), then its SEQUENCE rises and its DTSTAMP moves', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const sequences = [parsedEvents((await read(url)).body)[0]?.sequence];
      neighbours.bookings.set(scheduleId, [{ ...item, status: 'CONFIRMED', version: 2, updated_at: new Date().toISOString() }]);
      const confirmed = parsedEvents((await read(url)).body)[0];
      expect(confirmed?.status).toBe('CONFIRMED');
      sequences.push(confirmed?.sequence);
      const moved = {
        start_time: new Date(Date.parse(item.start_time) + 3_600_000).toISOString(),
        end_time: new Date(Date.parse(item.end_time) + 3_600_000).toISOString(),
      };
      neighbours.bookings.set(scheduleId, [
        { ...item, ...moved, status: 'CONFIRMED', version: 3, updated_at: new Date(Date.now() + 1000).toISOString() },
      ]);
      const rescheduled = parsedEvents((await read(url)).body)[0];
      expect(rescheduled?.start).toBe(moved.start_time);
      sequences.push(rescheduled?.sequence);
      expect(sequences).toEqual([0, 1, 2]);
      expect(rescheduled?.uid).toBe(confirmed?.uid);
      expect(rescheduled?.stamp).not.toBe(confirmed?.stamp);
    });

    it('when If-None-Match holds the ETag, then 304 without a body until the feed changes, then 200 with a new ETag', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const first = await read(url);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect((await read(url)).headers.etag).toBe(etag); // the same bookings, the same bytes
      const unchanged = await read(url, { 'if-none-match': etag });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
      expect(unchanged.headers.etag).toBe(etag);
      expect((await read(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      // What fetch sends with any conditional request: a revalidation, which this is.
      expect((await read(url, { 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(304);
      // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
      const otherTag = { 'if-none-match': '"other"', 'if-modified-since': String(first.headers['last-modified']) };
      expect((await read(url, otherTag)).statusCode).toBe(200);
      // A cancellation: the booking leaves the feed.
      neighbours.bookings.set(scheduleId, []);
      const changed = await read(url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(parsedEvents(changed.body)).toEqual([]);
    });

    it('when If-Modified-Since is the Last-Modified, then 304 until the feed changes, then 200 with a later Last-Modified', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const first = await read(url);
      const lastModified = String(first.headers['last-modified']);
      expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
      await sleep(1100); // a second later, the date would have moved had the feed been recorded as changed
      expect((await read(url)).headers['last-modified']).toBe(lastModified);
      const unchanged = await read(url, { 'if-modified-since': lastModified, 'cache-control': 'no-cache' });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await read(url, { 'if-modified-since': earlier })).statusCode).toBe(200);
      expect((await read(url, { 'if-modified-since': 'not a date' })).statusCode).toBe(200);
      neighbours.bookings.set(scheduleId, [{ ...item, summary: 'Renamed', version: 2, updated_at: new Date().toISOString() }]);
      const changed = await read(url, { 'if-modified-since': lastModified });
      expect(changed.statusCode).toBe(200);
      expect(Date.parse(String(changed.headers['last-modified']))).toBeGreaterThan(Date.parse(lastModified));
      expect(parsedEvents(changed.body)[0]?.summary).toBe('Renamed');
    });

    it('when two changes fall within one second, then each gets its own Last-Modified', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const dates = [String((await read(url)).headers['last-modified'])];
      neighbours.bookings.set(scheduleId, [{ ...item, version: 2 }]);
      dates.push(String((await read(url)).headers['last-modified']));
      neighbours.bookings.set(scheduleId, [{ ...item, version: 3 }]);
      const third = await read(url, { 'if-modified-since': dates[1] ?? '' });
      expect(third.statusCode).toBe(200);
      dates.push(String(third.headers['last-modified']));
      expect(new Set(dates).size).toBe(3);
    });

    it('when bookings does not answer, then 503 UPSTREAM_UNAVAILABLE, and the feed serves again once it does', async () => {
      const org = organization();
      const url = await feedOf(org.headers, neighbours.schedule(org.id, [booking()]));
      await neighbours.responder.silent(bookingFeedRequest);
      try {
        const response = await read(url);
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
        expect(response.headers['retry-after']).toBeDefined();
      } finally {
        await neighbours.answer();
      }
      expect((await read(url)).statusCode).toBe(200);
    });

    it.each([
      ['an unknown token', `/ics/${'A'.repeat(43)}.ics`],
      ['a token of the wrong shape', '/ics/short.ics'],
      ['no .ics', `/ics/${'A'.repeat(43)}`],
    ])('when the URL has %s, then 404 in the error shape', async (_case, path) => {
      const response = await running.app.inject({ url: path, headers: anonymousHeaders() });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
    });
  });
});
