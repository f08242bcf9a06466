import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions } from '../src/index.js';
import { failure } from './support/failure.js';
import { ScriptedServer, type Reply } from './support/scripted-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BOOKING_ID = '7b0e3c52-8d7a-4f7e-9c1b-3f1f0c6a2d11';
const created = { status: 201, body: { data: { id: BOOKING_ID, name: 'Desk' } } };
const rateLimited = (retryAfter?: string): Reply => ({
  status: 429,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { error: 'Too many requests', code: 'RATE_LIMITED' },
});
const unavailable = (retryAfter?: string): Reply => ({
  status: 503,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { error: 'The scheduling service did not answer in time', code: 'UPSTREAM_UNAVAILABLE' },
});

/** A server of each test's own: what one test scripts or receives never reaches another. */
let server: ScriptedServer;
beforeEach(async () => {
  server = new ScriptedServer();
  await server.start();
});
afterEach(() => server.stop());

describe('retries against a local server', () => {
  const api = (options: Partial<ClientOptions> = {}) => createClient({ baseUrl: server.url, apiKey: 'sk_test', ...options });

  it('when a create answers 429 with Retry-After: 1, then it is sent again after a second with the same generated Idempotency-Key', async () => {
    server.script(rateLimited('1'), created);

    const result = await api().POST('/api/v1/schedules', { body: { name: 'Desk' } });

    expect(result.data.data).toMatchObject({ id: BOOKING_ID, name: 'Desk' });
    expect(result.requestId).toBe('req-2');
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(first?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body.toString()).toBe(JSON.stringify({ name: 'Desk' }));
    expect(second?.headers.authorization).toBe('Bearer sk_test');
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('when a GET answers 503 with an HTTP-date Retry-After, then it is retried at that date', async () => {
    server.script(unavailable(new Date(Date.now() + 2000).toUTCString()), { status: 200, body: { data: { id: BOOKING_ID } } });

    const result = await api().GET('/api/v1/bookings/{id}', { params: { path: { id: BOOKING_ID } } });

    expect(result.data.data.id).toBe(BOOKING_ID);
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(first?.headers['idempotency-key']).toBeUndefined();
    // An HTTP date has whole seconds: the wait is between 1 and 2 s.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('when 503s come without Retry-After, then the waits back off and the caller’s own key is resent each time', async () => {
    server.script(unavailable(), unavailable(), created);

    const result = await api({ retries: { baseDelayMs: 200 } }).POST('/api/v1/schedules', {
      body: { name: 'Desk' },
      headers: { 'Idempotency-Key': 'my-key-1' },
    });

    expect(result.data.data.id).toBe(BOOKING_ID);
    const [first, second, third] = server.requests;
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['my-key-1', 'my-key-1', 'my-key-1']);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(95); // 100..200 ms
    expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(195); // 200..400 ms
  });

  it('when every attempt is refused, then the last answer is thrown after maxAttempts requests', async () => {
    server.script(rateLimited('0'));

    const error = await failure(api({ retries: { maxAttempts: 4 } }).GET('/api/v1/schedules'));

    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Too many requests', retryAfterMs: 0, requestId: 'req-4' });
  });

  it('when Retry-After is longer than maxRetryAfterMs, then the 429 is thrown at once with retryAfterMs', async () => {
    server.script(rateLimited('120'), created);

    const error = await failure(api().POST('/api/v1/schedules', { body: { name: 'Desk' } }));

    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
  });

  it('when a PATCH (no Idempotency-Key) answers 503, then it is not repeated', async () => {
    server.script(unavailable('0'), { status: 200, body: { data: { id: BOOKING_ID } } });

    const error = await failure(
      api().PATCH('/api/v1/bookings/{id}', { params: { path: { id: BOOKING_ID } }, body: { status: 'CONFIRMED' } }),
    );

    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      status: 503,
      code: 'UPSTREAM_UNAVAILABLE',
      operation: { method: 'PATCH', path: '/api/v1/bookings/{id}' },
    });
  });

  it('when a PATCH with If-Match answers 503, then it is sent again with it (a repeat of one that applied is a 412)', async () => {
    const etag = '"q3BQxWn1V8fVbS2pC9tKjA"';
    server.script(unavailable('0'), { status: 200, headers: { etag: '"next"' }, body: { data: { id: BOOKING_ID } } });

    const result = await api().PATCH('/api/v1/bookings/{id}', {
      params: { path: { id: BOOKING_ID } },
      body: { status: 'CONFIRMED' },
      headers: { 'If-Match': etag },
    });

    expect(server.requests.map((request) => request.headers['if-match'])).toEqual([etag, etag]);
    expect(result.etag).toBe('"next"');
  });

  it('when retries are off, then a 503 is thrown after one request', async () => {
    server.script(unavailable('0'), created);

    const error = await failure(api({ retries: false }).GET('/api/v1/schedules'));

    expect(server.requests).toHaveLength(1);
    expect(error.status).toBe(503);
  });

  it('when the signal aborts during the wait, then the call rejects with its reason at once', async () => {
    server.script(rateLimited('30'), created);
    const controller = new AbortController();
    const reason = new Error('user gave up');
    setTimeout(() => controller.abort(reason), 100);
    const started = performance.now();

    await expect(api().GET('/api/v1/schedules', { signal: controller.signal })).rejects.toBe(reason);

    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('when an upload from a stream answers 503, then the same multipart body and key are sent again', async () => {
    server.script(unavailable('0'), created);

    const result = await api().uploadMedia(Readable.from([Buffer.from('first '), Buffer.from('second')]), {
      filename: 'a.png',
      contentType: 'image/png',
      altText: 'Alt',
    });

    expect(result.data.data.id).toBe(BOOKING_ID);
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(first?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(first?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body.equals(first?.body ?? Buffer.alloc(0))).toBe(true);
    const body = first?.body.toString() ?? '';
    expect(body).toContain('name="alt_text"\r\n\r\nAlt\r\n');
    expect(body).toContain('name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nfirst second\r\n');
  });
});

describe('Idempotency-Key', () => {
  it('when creates are sent, then each gets its own key; reads and non-creating POSTs get none', async () => {
    server.script({ status: 201, body: { data: { id: BOOKING_ID } } });
    const api = createClient({ baseUrl: server.url, apiKey: 'sk_test' });

    await api.POST('/api/v1/schedules', { body: { name: 'A' } });
    await api.POST('/api/v1/schedules', { body: { name: 'B' } });
    await api.GET('/api/v1/schedules');
    await api.POST('/api/v1/calendar-connections/{id}/sync', { params: { path: { id: BOOKING_ID } } });

    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual([undefined, undefined]);
  });
});
