import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { buildService, createPool, type ServiceApp } from '../src/index.js';
import { silentLog } from './support/kit-env.js';

/*
 * What every service's app does with text it cannot store as sent (API.md, Conventions, "Size and text limits
 * everywhere"): invalid UTF-8, lone surrogates and NUL are a 400 naming where, and a value the database refuses
 * anyway is still the client's 400, never a 500.
 */
describe('request text in every service', () => {
  let app: ServiceApp;
  const pool = createPool(inject('databaseUrl'), { max: 1, log: silentLog });

  beforeAll(async () => {
    app = await buildService({ name: 'kit-text-test', log: silentLog, verifyCallerAssertion: false });
    app.post('/anything', { schema: { body: z.unknown() } }, async (request) => ({ data: request.body }));
    // Stores what it is given as jsonb, as a route whose schema let a bad value through would.
    app.post('/jsonb', { schema: { body: z.object({ json: z.string() }) } }, async (request) => {
      const { rows } = await pool.query<{ value: unknown }>('SELECT $1::jsonb AS value', [request.body.json]);
      return { data: rows[0]?.value };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await pool.end();
  });

  it.each([
    [
      'a lone high surrogate in a nested string',
      { attendee: { name: 'a\ud800' } },
      'attendee.name',
      'must not contain lone surrogates (invalid Unicode)',
    ],
    ['a lone low surrogate in an array item', { ids: ['ok', '\udc00x'] }, 'ids.1', 'must not contain lone surrogates (invalid Unicode)'],
    [
      'a lone surrogate in a key',
      { metadata: { 'k\ud800': 1 } },
      'metadata.k\ufffd',
      'must not have lone surrogates (invalid Unicode) in its name',
    ],
  ])('when the body has %s, then 400 naming where', async (_case, payload, path, problem) => {
    const response = await app.inject({ method: 'POST', url: '/anything', payload });
    expect(response.statusCode).toBe(400);
    const message = `${path} ${problem}`;
    expect(response.json()).toEqual({ error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] });
  });

  it('when a JSON body holds bytes that are not UTF-8, then 400 VALIDATION_ERROR, not U+FFFD in their place', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const response = await app.inject({ method: 'POST', url: '/anything', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'body must be valid UTF-8',
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body', message: 'body must be valid UTF-8' }],
    });
  });

  it('when a JSON body is UTF-8 with characters of every plane and bidi controls, then they arrive exactly as sent', async () => {
    const value = 'café ☕ 𝄞 \u202eabc\u2069 مرحبا';
    const payload = Buffer.from(JSON.stringify({ value }), 'utf8');
    const response = await app.inject({
      method: 'POST',
      url: '/anything',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { value } });
  });

  it('when the JSON tries prototype pollution, then 400 as before the UTF-8 check', async () => {
    const payload = Buffer.from('{"__proto__":{"admin":true}}');
    const response = await app.inject({ method: 'POST', url: '/anything', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(400);
  });

  it('when Postgres refuses a value as unreadable (a \\ud800 escape in jsonb), then 400 VALIDATION_ERROR, not 500', async () => {
    const response = await app.inject({ method: 'POST', url: '/jsonb', payload: { json: '{"k":"\\ud800"}' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request holds a value that cannot be stored', code: 'VALIDATION_ERROR' });
  });
});
