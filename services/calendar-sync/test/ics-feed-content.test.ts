import { setTimeout as sleep } from 'node:timers/promises';
import { bookingFeedRequest } from '@app/contracts';
import { anonymousHeaders } from '@app/service-testing';
import { describe, expect, it } from 'vitest';
import { booking, DAY_MS, feedSuite, parsedEvents } from './support/feed-suite.js';

/** What a feed URL serves: the calendar, read back with ical.js, and its conditional GETs. */
describe('ICS feed content', () => {
  const suite = feedSuite();
  const { organization, feedOf, read } = suite;

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
      const scheduleId = suite.neighbours.schedule(org.id, [pending, confirmed]);
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
      const scheduleId = suite.neighbours.schedule(org.id);
      const url = await feedOf(org.headers, scheduleId);
      suite.neighbours.responder.forget();
      const before = Date.now();
      await read(url);
      const [asked] = suite.neighbours.responder.received(bookingFeedRequest);
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
      const response = await read(await feedOf(org.headers, suite.neighbours.schedule(org.id, [item])));
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
      const scheduleId = suite.neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const sequences = [parsedEvents((await read(url)).body)[0]?.sequence];
      suite.neighbours.bookings.set(scheduleId, [{ ...item, status: 'CONFIRMED', version: 2, updated_at: new Date().toISOString() }]);
      const confirmed = parsedEvents((await read(url)).body)[0];
      expect(confirmed?.status).toBe('CONFIRMED');
      sequences.push(confirmed?.sequence);
      const moved = {
        start_time: new Date(Date.parse(item.start_time) + 3_600_000).toISOString(),
        end_time: new Date(Date.parse(item.end_time) + 3_600_000).toISOString(),
      };
      suite.neighbours.bookings.set(scheduleId, [
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
      const scheduleId = suite.neighbours.schedule(org.id, [item]);
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
      suite.neighbours.bookings.set(scheduleId, []);
      const changed = await read(url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(parsedEvents(changed.body)).toEqual([]);
    });

    it('when If-Modified-Since is the Last-Modified, then 304 until the feed changes, then 200 with a later Last-Modified', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = suite.neighbours.schedule(org.id, [item]);
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
      suite.neighbours.bookings.set(scheduleId, [{ ...item, summary: 'Renamed', version: 2, updated_at: new Date().toISOString() }]);
      const changed = await read(url, { 'if-modified-since': lastModified });
      expect(changed.statusCode).toBe(200);
      expect(Date.parse(String(changed.headers['last-modified']))).toBeGreaterThan(Date.parse(lastModified));
      expect(parsedEvents(changed.body)[0]?.summary).toBe('Renamed');
    });

    it('when two changes fall within one second, then each gets its own Last-Modified', async () => {
      const org = organization();
      const item = booking();
      const scheduleId = suite.neighbours.schedule(org.id, [item]);
      const url = await feedOf(org.headers, scheduleId);
      const dates = [String((await read(url)).headers['last-modified'])];
      suite.neighbours.bookings.set(scheduleId, [{ ...item, version: 2 }]);
      dates.push(String((await read(url)).headers['last-modified']));
      suite.neighbours.bookings.set(scheduleId, [{ ...item, version: 3 }]);
      const third = await read(url, { 'if-modified-since': dates[1] ?? '' });
      expect(third.statusCode).toBe(200);
      dates.push(String(third.headers['last-modified']));
      expect(new Set(dates).size).toBe(3);
    });

    it('when bookings does not answer, then 503 UPSTREAM_UNAVAILABLE, and the feed serves again once it does', async () => {
      const org = organization();
      const url = await feedOf(org.headers, suite.neighbours.schedule(org.id, [booking()]));
      await suite.neighbours.responder.silent(bookingFeedRequest);
      try {
        const response = await read(url);
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
        expect(response.headers['retry-after']).toBeDefined();
      } finally {
        await suite.neighbours.answer();
      }
      expect((await read(url)).statusCode).toBe(200);
    });

    it.each([
      ['an unknown token', `/ics/${'A'.repeat(43)}.ics`],
      ['a token of the wrong shape', '/ics/short.ics'],
      ['no .ics', `/ics/${'A'.repeat(43)}`],
    ])('when the URL has %s, then 404 in the error shape', async (_case, path) => {
      const response = await suite.running.app.inject({ url: path, headers: anonymousHeaders() });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
    });
  });
});
