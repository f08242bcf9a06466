import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startEchoUpstreams } from './support/echo-upstreams.js';
import { createOrganization, startGateway } from './support/harness.js';

const MALFORMED = { error: 'Malformed request path', code: 'VALIDATION_ERROR' };

const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
const gateway = startedForTests(() => startGateway(upstreams.env));
let port = 0;
let key = '';
beforeAll(async () => {
  port = Number(new URL(await gateway.app.listen({ host: '127.0.0.1', port: 0 })).port);
  key = (await createOrganization(gateway)).api_key;
});

/**
 * A GET with the request target exactly as given (fetch and inject would resolve dot segments first), read until
 * its whole answer is in: status and JSON body.
 */
function rawGet(target: Buffer, authorization?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? NaN);
      if (end < 0 || received.length < end + 4 + length) return;
      socket.destroy();
      const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
      resolve({ status: Number(text.slice(9, 12)), body: JSON.parse(body) as unknown });
    });
    socket.on('error', reject);
    const head = `HTTP/1.1\r\nHost: gateway\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}\r\n`;
    socket.write(Buffer.concat([Buffer.from('GET '), target, Buffer.from(` ${head}`)]));
  });
}

describe('GET /api/v1/* with a malformed path', () => {
  it.each([
    ['a dot segment', '/api/v1/bookings/../schedules'],
    ['an encoded dot segment', '/api/v1/bookings/%2e%2e/schedules'],
    ['a dot segment with an encoded slash', '/api/v1/bookings/..%2fschedules'],
    ['three dots (the proxy takes /.. for traversal)', '/api/v1/bookings/...'],
    ['an encoded NUL', '/api/v1/bookings/%00'],
    ['an encoded tab', '/api/v1/bookings/a%09b'],
    ['a dot segment on a public path', '/api/bookings/slots/../x'],
  ])('when the path has %s (%s), then 400 "Malformed request path", before auth and the proxy', async (_case, path) => {
    const withKey = await rawGet(Buffer.from(path), `Bearer ${key}`);
    const withoutKey = await rawGet(Buffer.from(path));

    expect(withKey).toEqual({ status: 400, body: MALFORMED });
    expect(withoutKey).toEqual({ status: 400, body: MALFORMED });
  });

  it.each([
    ['a raw tab', Buffer.from('/api/v1/bookings/a\tb')],
    ['a raw non-ASCII byte', Buffer.from([...Buffer.from('/api/v1/bookings/a'), 0xe9])],
  ])('when the path has %s, then the HTTP parser answers a plain 400 before any route', async (_case, target) => {
    expect(await rawGet(target, `Bearer ${key}`)).toEqual({ status: 400, body: { error: 'Malformed request', code: 'VALIDATION_ERROR' } });
  });

  it('when the percent-encoding is not UTF-8, then the router answers a plain 404 before any hook', async () => {
    expect(await rawGet(Buffer.from('/api/v1/bookings/%ff'), `Bearer ${key}`)).toEqual({
      status: 404,
      body: { error: 'Not found', code: 'NOT_FOUND' },
    });
  });

  it('when the path is well formed (dots inside a segment, an encoded space, dots in the query), then it is proxied', async () => {
    const answer = await rawGet(Buffer.from('/api/v1/bookings/a..b%20c?q=../x'), `Bearer ${key}`);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ service: 'bookings', url: '/api/v1/bookings/a..b%20c?q=../x' });
  });
});
