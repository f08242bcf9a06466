import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdOrganizationSchema, dataEnvelope } from '@app/contracts';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const STALE = { error: "If-Match does not match the record's current ETag", code: 'PRECONDITION_FAILED' };
const idOf = (response: { body: unknown }) => (response.body as { data: { id: string } }).data.id;

/**
 * API.md's ETags through the real gateway and services over HTTP: the gateway passes If-None-Match and If-Match on,
 * and the services' 304s (no body) and 412s back. The services' suites prove the contract on each record
 * (describeConditionalRequests); this proves the path on one record of each kind the issue names.
 */
describe('ETags and conditional requests through the gateway', () => {
  let stack: E2eStack;
  let key: string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    stack.call(method, path, { key, body, headers });

  beforeAll(async () => {
    stack = await startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000' });
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Conditional Co' },
    });
    key = dataEnvelope(createdOrganizationSchema).parse(created.body).data.api_key;
  }, 120_000);
  afterAll(() => stack?.stop());

  /** One record of each kind, its URL and a PATCH body that changes it (call `n` a change of its own). */
  async function records(): Promise<{ name: string; url: string; change: (n: number) => object }[]> {
    const schedule = await call('POST', '/api/v1/schedules', {
      name: 'Desk',
      timezone: 'UTC',
      availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })),
    });
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    const booking = await call('POST', '/api/v1/bookings', {
      schedule_id: idOf(schedule),
      start_time: start.toISOString(),
      end_time: new Date(start.getTime() + 30 * 60_000).toISOString(),
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    const product = await call('POST', '/api/v1/products', { name: 'Mug', price: 12 });
    const event = await call('POST', '/api/v1/events', { title: 'Workshop', start_date: '2031-05-20', start_time: '10:00' });
    for (const created of [schedule, booking, product, event]) expect(created.status).toBe(201);
    return [
      { name: 'a booking', url: `/api/v1/bookings/${idOf(booking)}`, change: (n) => ({ metadata: { n } }) },
      { name: 'a product', url: `/api/v1/products/${idOf(product)}`, change: (n) => ({ name: `Mug ${n}` }) },
      { name: 'an event', url: `/api/v1/events/${idOf(event)}`, change: (n) => ({ title: `Workshop ${n}` }) },
    ];
  }

  it('when each is read, read again with its ETag, changed with a stale one and with the current one, then 200, 304, 412, 200', async () => {
    for (const { name, url, change } of await records()) {
      const read = await call('GET', url);
      const etag = read.headers.get('etag') ?? '';
      expect({ name, status: read.status, etag }).toEqual({ name, status: 200, etag: expect.stringMatching(/^"[^"]+"$/) });

      const notModified = await fetch(`${stack.gatewayUrl}${url}`, { headers: { authorization: `Bearer ${key}`, 'if-none-match': etag } });
      expect({ name, status: notModified.status, body: await notModified.text() }).toEqual({ name, status: 304, body: '' });
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(notModified.headers.get('cache-control')).toBe('no-store');

      const patched = await call('PATCH', url, change(1), { 'if-match': etag });
      expect({ name, status: patched.status }).toEqual({ name, status: 200 });
      const next = patched.headers.get('etag');
      expect(next).not.toBe(etag);
      expect((await call('GET', url, undefined, { 'if-none-match': etag })).status).toBe(200);

      const stale = await call('PATCH', url, change(2), { 'if-match': etag });
      expect({ name, status: stale.status, body: stale.body }).toEqual({ name, status: 412, body: STALE });
      const removal = await call('DELETE', url, undefined, { 'if-match': etag });
      expect({ name, status: removal.status }).toEqual({ name, status: 412 });
      expect((await call('GET', url)).headers.get('etag')).toBe(next);
    }
  });

  it('when 10 PATCHes with one If-Match arrive at once, then exactly one applies and the rest are 412', async () => {
    for (const { name, url, change } of await records()) {
      const etag = (await call('GET', url)).headers.get('etag') ?? '';
      const replies = await Promise.all(Array.from({ length: 10 }, (_, n) => call('PATCH', url, change(n), { 'if-match': etag })));
      const statuses = replies.map((reply) => reply.status).sort();
      expect({ name, statuses }).toEqual({ name, statuses: [200, ...Array<number>(9).fill(412)] });
    }
  });
});
