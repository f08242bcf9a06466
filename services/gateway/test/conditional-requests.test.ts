import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoUpstreams, type EchoUpstreams } from './support/echo-upstreams.js';
import { createOrganization, startGateway, type Gateway } from './support/harness.js';

const ETAG = '"q3BQxWn1V8fVbS2pC9tKjA"';
const STALE = { error: "If-Match does not match the record's current ETag", code: 'PRECONDITION_FAILED' };

let upstreams: EchoUpstreams;
let conditional: FastifyInstance;
let gateway: Gateway;
const seen: Record<string, string | undefined>[] = [];
beforeAll(async () => {
  upstreams = await startEchoUpstreams();
  // A service answering as the kit does: the ETag on a GET and a PATCH, 304 for a current If-None-Match, 412 for a
  // stale If-Match; it says what it received.
  conditional = Fastify();
  conditional.all('/*', async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    const ifNoneMatch = request.headers['if-none-match'];
    seen.push({ method: request.method, ifMatch, ifNoneMatch });
    if (ifMatch !== undefined && ifMatch !== ETAG) return reply.code(412).send(STALE);
    void reply.header('etag', ETAG);
    if (request.method === 'GET' && ifNoneMatch === ETAG) return reply.code(304).send();
    return { data: { id: 'b1' } };
  });
  const url = await conditional.listen({ host: '127.0.0.1', port: 0 });
  gateway = await startGateway({ ...upstreams.env, BOOKINGS_URL: url });
});
afterAll(async () => {
  await gateway?.stop();
  await conditional?.close();
  await upstreams?.close();
});

describe('conditional requests through the gateway', () => {
  it('when a GET carries If-None-Match and a PATCH If-Match, then the service gets them and its 304, 412 and ETags come back as sent', async () => {
    const org = await createOrganization(gateway);
    const headers = { authorization: `Bearer ${org.api_key}` };
    const url = '/api/v1/bookings/b1';

    const read = await gateway.app.inject({ url, headers });
    const notModified = await gateway.app.inject({ url, headers: { ...headers, 'if-none-match': ETAG } });
    const stale = await gateway.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': '"old"' }, payload: { title: 'x' } });
    const current = await gateway.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': ETAG }, payload: { title: 'x' } });

    expect(seen.slice(-4)).toEqual([
      { method: 'GET', ifMatch: undefined, ifNoneMatch: undefined },
      { method: 'GET', ifMatch: undefined, ifNoneMatch: ETAG },
      { method: 'PATCH', ifMatch: '"old"', ifNoneMatch: undefined },
      { method: 'PATCH', ifMatch: ETAG, ifNoneMatch: undefined },
    ]);
    expect([read.statusCode, read.headers.etag]).toEqual([200, ETAG]);
    expect([notModified.statusCode, notModified.body, notModified.headers.etag]).toEqual([304, '', ETAG]);
    expect(notModified.headers['content-length'] ?? '0').toBe('0');
    expect([stale.statusCode, stale.json()]).toEqual([412, STALE]);
    expect([current.statusCode, current.headers.etag]).toEqual([200, ETAG]);
    for (const response of [read, notModified, stale, current]) expect(response.headers['cache-control']).toBe('no-store');
  });
});
