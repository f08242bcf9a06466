import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startEchoUpstreams } from './support/echo-upstreams.js';
import { startGateway } from './support/harness.js';

const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
const gateway = startedForTests(() => startGateway({ ...upstreams.env, NODE_ENV: 'test' }));
const production = startedForTests(() =>
  startGateway({ ...upstreams.env, NODE_ENV: 'production', METRICS_TOKEN: 'metrics-token-0123456789abcdef' }),
);

const built = () => readFile(new URL('../../../packages/booking-widget/dist/booking.js', import.meta.url));
const sha384 = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const SCHEDULE = '6f1d3c2a-8e4b-4a7f-9c5d-2b8e7a1f3c90';

describe('GET /widget/booking.js', () => {
  it('when fetched without a key from another origin, then it is the built widget as JavaScript, cacheable, readable by any origin, with an ETag', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/widget/booking.js', headers: { origin: 'https://shop.example' } });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=(\d{5,})/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect(response.rawPayload.equals(await built())).toBe(true);
    expect(response.body).toContain('booking-widget');
  });

  it('when asked again with its ETag, then the answer is a 304 without a body', async () => {
    const first = await gateway.app.inject({ method: 'GET', url: '/widget/booking.js' });
    const again = await gateway.app.inject({
      method: 'GET',
      url: '/widget/booking.js',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    const other = await gateway.app.inject({ method: 'GET', url: '/widget/booking.js', headers: { 'if-none-match': '"stale"' } });

    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(other.statusCode).toBe(200);
  });

  it('when docs/booking-widget.md gives its integrity hash, then it is the sha384 of the file the gateway serves', async () => {
    const docs = await readFile(new URL('../../../docs/booking-widget.md', import.meta.url), 'utf8');
    const served = await gateway.app.inject({ method: 'GET', url: '/widget/booking.js' });
    const hashes = [...docs.matchAll(/integrity="(sha384-[A-Za-z0-9+/=]+)"/g)].map((match) => match[1]);

    expect(hashes.length).toBeGreaterThan(0);
    // On a mismatch: `npm run build && npm run widget:integrity` writes the built file's hash into the docs.
    for (const hash of hashes) expect(hash).toBe(sha384(served.rawPayload));
  });
});

describe('GET /widget/demo', () => {
  it('when NODE_ENV is test and a publishable key and schedule are given, then the page embeds the widget with them', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: `/widget/demo?key=pk_demo123&schedule=${SCHEDULE}` });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<script type="module" src="/widget/booking.js"></script>');
    expect(response.body).toContain(`<booking-widget publishable-key="pk_demo123" schedule-id="${SCHEDULE}">`);
  });

  it.each([
    ['a secret key', `key=sk_live&schedule=${SCHEDULE}`, 'key'],
    ['markup in the key', `key=${encodeURIComponent('pk_"><script>')}&schedule=${SCHEDULE}`, 'key'],
    ['no schedule', 'key=pk_demo', 'schedule'],
  ])('when given %s, then it is a 400 naming the field, and nothing is echoed', async (_case, query, field) => {
    const response = await gateway.app.inject({ method: 'GET', url: `/widget/demo?${query}` });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: field }] });
    expect(response.body).not.toContain('<script>');
  });

  it('when NODE_ENV is production, then there is no demo page, and the widget is still served', async () => {
    const demo = await production.app.inject({ method: 'GET', url: `/widget/demo?key=pk_demo123&schedule=${SCHEDULE}` });
    const widget = await production.app.inject({ method: 'GET', url: '/widget/booking.js' });

    expect(demo.statusCode).toBe(404);
    expect(widget.statusCode).toBe(200);
  });
});
