import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, buildService, type ServiceApp } from '../src/index.js';
import { organizationHeaders } from '@app/service-testing';
import { silentLog, useRunCallerKeys } from './support/kit-env.js';

describe('buildService', () => {
  let app: ServiceApp;

  beforeAll(async () => {
    // What this suite checks is the same with or without a caller assertion (caller-assertion.test.ts checks those).
    app = await buildService({
      name: 'kit-test',
      log: silentLog,
      readiness: [{ name: 'database', check: async () => undefined }],
      verifyCallerAssertion: false,
    });
    app.post(
      '/things',
      {
        schema: {
          body: z.object({ title: z.string().min(1), count: z.number().int().optional() }),
          querystring: z.object({ mode: z.enum(['a', 'b']).optional() }),
        },
      },
      async (request) => ({ data: request.body }),
    );
    app.delete('/things', async () => ({ data: { deleted: true } }));
    app.get('/things/:id', async (request) => ({ data: request.params }));
    app.get('/conflict', async () => {
      throw new AppError('SLOT_TAKEN', 'This time slot is already booked');
    });
    app.get('/boom', async () => {
      throw new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
    });
    app.post('/boom', { schema: { body: z.object({ title: z.string() }) } }, async () => {
      throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
    });
    app.get('/socket-reset', async () => {
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }); // e.g. the database's socket
    });
    app.post('/anything', { schema: { body: z.unknown() } }, async (request) => ({ data: request.body }));
    // Two checks of one field with one message, as a date's format and its calendar check are.
    const date = z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' })
      .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'must be a date YYYY-MM-DD' });
    app.post('/dated', { schema: { body: z.object({ day: date }) } }, async (request) => ({ data: request.body }));
    await app.ready();
  });
  afterAll(() => app.close());

  /** POSTs `payload` to /things exactly as written, labelled JSON: bodies no JSON encoder would make. */
  const postRawJson = (payload: string) =>
    app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload });

  it('when a required field is missing, then 400 VALIDATION_ERROR names it with details', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { count: 2 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'title is required',
      code: 'VALIDATION_ERROR',
      details: [{ path: 'title', message: 'title is required' }],
    });
  });

  it('when a route with a body fails unexpectedly, then 500 INTERNAL (never disguised as a client error)', async () => {
    const response = await app.inject({ method: 'POST', url: '/boom', payload: { title: 'x' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
  });

  it('when a server-side socket is reset (ECONNRESET from the database), then 503 with Retry-After, not blamed on the client', async () => {
    const response = await app.inject({ url: '/socket-reset' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({ error: 'A service this request needs is unavailable; retry shortly', code: 'UPSTREAM_UNAVAILABLE' });
  });

  it.each([
    ['a NUL in a nested string', { attendee: { name: 'a\u0000b' } }, 'attendee.name', 'attendee.name must not contain NUL characters'],
    ['a NUL in a key', { metadata: { 'k\u0000': 1 } }, 'metadata.k\\0', 'metadata.k\\0 must not have NUL characters in its name'],
    ['a NUL in an array item', { tags: ['ok', '\u0000'] }, 'tags.1', 'tags.1 must not contain NUL characters'],
  ])('when the body has %s, then 400 naming where, before any schema or database sees it', async (_case, payload, path, message) => {
    const response = await app.inject({ method: 'POST', url: '/anything', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] });
  });

  it('when the body is nested deeper than 32 levels, then 400; 32 levels are fine', async () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: nest(levels - 1) });
    expect((await app.inject({ method: 'POST', url: '/anything', payload: nest(31) as object })).statusCode).toBe(200);
    const deepJson = `${'{"a":'.repeat(4500)}"leaf"${'}'.repeat(4500)}`;
    const deep = await app.inject({ method: 'POST', url: '/anything', headers: { 'content-type': 'application/json' }, payload: deepJson });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toMatch(/must not be nested more than 32 levels deep$/);
  });

  it('when a query parameter holds a NUL, then 400 naming it', async () => {
    const response = await app.inject({ method: 'POST', url: '/things?mode=a%00', payload: { title: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'mode', message: 'mode must not contain NUL characters' }]);
  });

  it.each([
    ['not valid percent-encoding', '/things/%ZZ'],
    ['an overlong UTF-8 sequence', '/things/%C0%AF'],
    ['longer than the router takes', `/things/${'a'.repeat(1001)}`],
  ])('when a path parameter is %s, then 404 NOT_FOUND in the error shape, with a request id', async (_case, url) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('when a path parameter is longer than Fastify takes by default (100), then its route still gets it', async () => {
    const id = 'a'.repeat(300);
    const response = await app.inject({ url: `/things/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id } });
  });

  it('when several checks of one field fail with one message, then details say it once', async () => {
    const response = await app.inject({ method: 'POST', url: '/dated', payload: { day: '2026-1-1x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'day', message: 'day must be a date YYYY-MM-DD' }]);
  });

  it('when a field has the wrong type, then the message names the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { title: 'x', count: 'two' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^count /);
    expect(response.json().details[0].path).toBe('count');
  });

  it('when a query parameter is invalid, then 400 names it', async () => {
    const response = await app.inject({ method: 'POST', url: '/things?mode=z', payload: { title: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0].path).toBe('mode');
  });

  it('when the JSON is malformed, then 400 VALIDATION_ERROR, not 500', async () => {
    const response = await postRawJson('{"title":');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('when a DELETE carries a JSON content type and no body, then it is served (no body is not bad JSON)', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/things', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
  });

  it('when the JSON tries prototype pollution, then 400', async () => {
    const response = await postRawJson('{"title":"x","__proto__":{"admin":true}}');
    expect(response.statusCode).toBe(400);
  });

  it('when the body is over 1 MB, then 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { title: 'x'.repeat(1024 * 1024 + 10) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('when a use case throws an AppError, then its status, message and code are sent', async () => {
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'This time slot is already booked', code: 'SLOT_TAKEN' });
  });

  it('when an unknown error is thrown, then 500 INTERNAL without internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
    expect(response.body).not.toMatch(/secret_table|SELECT|at /);
  });

  it('when the route does not exist, then 404 NOT_FOUND in the error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
  });

  it('when x-request-id is given, then it is echoed; otherwise one is generated', async () => {
    const given = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'req-123' } });
    expect(given.headers['x-request-id']).toBe('req-123');
    const generated = await app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\n' } });
    expect(unsafe.headers['x-request-id']).not.toBe('bad id\n');
  });

  it('when probed, then /healthz, /readyz, /metrics and /openapi.json answer', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    await app.inject({ method: 'GET', url: '/conflict' });
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/http_requests_total\{.*route="\/conflict".*status="409"/);
    const openapi = (await app.inject({ url: '/openapi.json' })).json();
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toContain('/things');
  });
});

describe('GET /api/v1/ping/<service>', () => {
  it('when the gateway asserted an organization, then the service names itself and the organization; else 401', async () => {
    const app = await buildService({ name: 'kit-test', log: silentLog });
    useRunCallerKeys(app);
    const organization = '5b0cbd2e-8d7c-4c53-9d1e-0f8a3c1f4e21';
    const ok = await app.inject({ url: '/api/v1/ping/kit-test', headers: organizationHeaders(organization) });
    expect(ok.json()).toEqual({ data: { service: 'kit-test', organization_id: organization } });
    const anonymous = await app.inject({ url: '/api/v1/ping/kit-test' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHORIZED');
    await app.close();
  });
});

describe('/readyz', () => {
  it('when a dependency is down, then 503 naming it', async () => {
    const app = await buildService({
      name: 'kit-test',
      log: silentLog,
      readiness: [
        { name: 'database', check: async () => undefined },
        { name: 'nats', check: async () => Promise.reject(new Error('down')) },
      ],
    });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', nats: 'unavailable' } });
    await app.close();
  });
});
