import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingRecordSchema, createdOrganizationSchema, dataEnvelope, icsFeedSchema, scheduleRecordSchema } from '@app/contracts';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00.000Z`;

/** The events of a feed as a second library (ical.js) reads them. */
function events(body: string) {
  return new ICAL.Component(ICAL.parse(body)).getAllSubcomponents('vevent').map((vevent) => ({
    uid: String(vevent.getFirstPropertyValue('uid')),
    summary: String(vevent.getFirstPropertyValue('summary')),
    start: new ICAL.Event(vevent).startDate.toJSDate().toISOString(),
    status: String(vevent.getFirstPropertyValue('status')),
    sequence: Number(vevent.getFirstPropertyValue('sequence')),
  }));
}

/**
 * A schedule's ICS feed through the gateway, with the real bookings, scheduling and calendar-sync behind it: the
 * feed's URL needs no key, and the bookings it shows come from bookings over NATS (with the generated NATS rights).
 */
describe('ICS feeds through the gateway', () => {
  let stack: E2eStack;
  let key: string;
  let scheduleId: string;
  const call = (method: string, path: string, body?: unknown, as: string | undefined = key) => stack.call(method, path, { key: as, body });
  /** A feed URL read the way a calendar app reads it: no key, maybe conditional. */
  const read = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };

  beforeAll(async () => {
    stack = await startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000' });
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Feeds' },
    });
    key = dataEnvelope(createdOrganizationSchema).parse(created.body).data.api_key;
    const schedule = await call('POST', '/api/v1/schedules', {
      name: 'Desk',
      timezone: 'UTC',
      availability: WEEK.map((d) => ({ day: d, start: '09:00', end: '17:00' })),
    });
    scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
  }, 120_000);
  afterAll(() => stack?.stop());

  it('when a feed is made, then its URL serves the bookings without a key, follows their changes, and answers 304 while nothing changed', async () => {
    const made = await call('POST', `/api/v1/schedules/${scheduleId}/ics-feed`);
    expect(made.status).toBe(201);
    const { url } = dataEnvelope(icsFeedSchema).parse(made.body).data;
    expect(url.startsWith(`${stack.gatewayUrl}/ics/`)).toBe(true);

    const booked = await call('POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      start_time: at(day(3), '10:00'),
      end_time: at(day(3), '10:30'),
      title: 'Planning, Q3; budget',
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(booked.status).toBe(201);
    const booking = dataEnvelope(bookingRecordSchema).parse(booked.body).data;

    const first = await read(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const host = new URL(stack.gatewayUrl).hostname;
    expect(events(first.body)).toEqual([
      { uid: `${booking.id}@${host}`, summary: 'Planning, Q3; budget', start: at(day(3), '10:00'), status: 'TENTATIVE', sequence: 0 },
    ]);
    const etag = first.headers.get('etag') ?? '';
    // fetch adds `Cache-Control: no-cache` to a conditional request, as calendar apps' HTTP stacks may: still a 304.
    expect((await read(url, { 'if-none-match': etag })).status).toBe(304);
    expect((await read(url, { 'if-modified-since': first.headers.get('last-modified') ?? '' })).status).toBe(304);

    expect((await call('PATCH', `/api/v1/bookings/${booking.id}`, { status: 'CONFIRMED' })).status).toBe(200);
    const confirmed = await read(url, { 'if-none-match': etag });
    expect(confirmed.status).toBe(200);
    expect(events(confirmed.body)).toMatchObject([{ uid: `${booking.id}@${host}`, status: 'CONFIRMED', sequence: 1 }]);

    expect((await call('DELETE', `/api/v1/bookings/${booking.id}`)).status).toBe(200);
    expect(events((await read(url)).body)).toEqual([]);

    // A new URL kills the old one; a deletion kills the feed.
    const replaced = dataEnvelope(icsFeedSchema).parse((await call('POST', `/api/v1/schedules/${scheduleId}/ics-feed`)).body).data.url;
    const old = await read(url);
    expect(old.status).toBe(404);
    expect(JSON.parse(old.body)).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
    expect((await read(replaced)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/schedules/${scheduleId}/ics-feed`)).body).toEqual({
      data: { schedule_id: scheduleId, deleted: true },
    });
    expect((await read(replaced)).status).toBe(404);
  });

  it('when a feed is managed without a key, or for a schedule of another organization, then 401 and 404', async () => {
    expect((await stack.call('POST', `/api/v1/schedules/${scheduleId}/ics-feed`)).status).toBe(401);
    const other = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Other' },
    });
    const otherKey = dataEnvelope(createdOrganizationSchema).parse(other.body).data.api_key;
    const foreign = await call('POST', `/api/v1/schedules/${scheduleId}/ics-feed`, undefined, otherKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'SCHEDULE_NOT_FOUND' });
  });
});
