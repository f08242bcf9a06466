import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefusal } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { createOrganization, quarterHour } from '../support/organization.js';

/*
 * The security review of issue 46, as a test through the gateway of a running stack: a publishable key tried on
 * every operation of the served OpenAPI document that is not one of its public ones, a restricted key outside its
 * scopes, and an attendee's booking read with a guessed secret or another booking's. Each probe prints its answer,
 * so a run shows the whole table.
 */
interface Operation {
  method: string;
  path: string;
  operationId: string;
}
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const ORIGIN = 'https://shop.example';

describe('keys of every kind, probed through the gateway', () => {
  let stack: E2eStack;
  let secret: string;
  let publishable: string;
  let restricted: string;
  let scheduleId: string;
  let operations: Operation[];

  const createKey = async (body: Record<string, unknown>) => {
    const created = await stack.call('POST', '/api/v1/api-keys', { key: secret, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return (created.body as { data: { key: string } }).data.key;
  };

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ key: secret } = await createOrganization(stack, 'Probes'));
    publishable = await createKey({ name: 'shop front', type: 'publishable', allowed_origins: [ORIGIN] });
    restricted = await createKey({ name: 'reports', type: 'restricted', scopes: ['bookings:read'] });
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key: secret,
      body: {
        name: 'Public desk',
        timezone: 'UTC',
        slot_duration: 15,
        public_booking: true,
        availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })),
      },
    });
    scheduleId = (schedule.body as { data: { id: string } }).data.id;
    const document = (await stack.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'patch', 'delete'].includes(method) && path.startsWith('/api/'))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operationId: operation.operationId })),
    );
  }, 180_000);
  afterAll(() => stack?.stop());

  /** The path with a fresh UUID for each parameter (a provider name where the path takes one). */
  const concrete = (path: string) => path.replace(/\{provider\}/g, 'google').replace(/\{[^}]+\}/g, () => randomUUID());

  it('when a publishable key calls any operation that is not public, then 403 FORBIDDEN before anything runs', async () => {
    const refused = operations.filter(({ operationId }) => keyRefusal({ keyType: 'publishable' }, operationId) !== null);
    // The document's keyless OAuth callback aside, every operation has a rule, and most are not public.
    expect(refused.length).toBeGreaterThan(40);
    const answers = [];
    for (const { method, path, operationId } of refused) {
      const response = await stack.call(method, concrete(path), {
        key: publishable,
        headers: { origin: ORIGIN },
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      });
      answers.push({ probe: `${method} ${path}`, operationId, status: response.status, body: response.body });
    }
    console.table(answers.map(({ probe, status, body }) => ({ probe, status, code: (body as { code?: string }).code })));
    for (const answer of answers) {
      // Publishable keys cannot call this operation, or (the key management) This key cannot manage API keys.
      expect(answer, answer.probe).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN', error: keyRefusal({ keyType: 'publishable' }, answer.operationId) },
      });
    }
  }, 120_000);

  it('when a restricted key calls outside its scopes, then 403 naming the scope; inside them it is served', async () => {
    const list = await stack.call('GET', '/api/v1/bookings', { key: restricted });
    expect(list.status).toBe(200);
    const write = await stack.call('POST', '/api/v1/bookings', { key: restricted, body: {} });
    expect([write.status, write.body]).toEqual([403, { error: 'This key lacks the bookings:write scope', code: 'FORBIDDEN' }]);
    const products = await stack.call('GET', '/api/v1/products', { key: restricted });
    expect([products.status, products.body]).toEqual([403, { error: 'This key lacks the products:read scope', code: 'FORBIDDEN' }]);
    const keys = await stack.call('GET', '/api/v1/api-keys', { key: restricted });
    expect([keys.status, keys.body]).toEqual([403, { error: 'This key cannot manage API keys', code: 'FORBIDDEN' }]);
  });

  it("when an attendee's booking is read with a guessed or another booking's client_secret, then 404 as an unknown id", async () => {
    const book = async (n: number) => {
      const created = await stack.call('POST', '/api/v1/bookings', {
        key: publishable,
        headers: { origin: ORIGIN },
        body: { schedule_id: scheduleId, ...quarterHour(n), attendee: { name: 'Ada', email: 'ada@example.com' } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (created.body as { data: { id: string; client_secret: string } }).data;
    };
    const [mine, theirs] = [await book(4), await book(8)];
    const read = (id: string, clientSecret?: string) =>
      stack.call('GET', `/api/v1/bookings/${id}${clientSecret === undefined ? '' : `?client_secret=${clientSecret}`}`, {
        key: publishable,
        headers: { origin: ORIGIN },
      });
    const guessed = `cs_${'A'.repeat(32)}`;
    const probes = {
      own: (await read(mine.id, mine.client_secret)).status,
      none: (await read(mine.id)).status,
      guessed: (await read(mine.id, guessed)).status,
      another: (await read(mine.id, theirs.client_secret)).status,
      truncated: (await read(mine.id, mine.client_secret.slice(0, -1))).status,
    };
    console.table(probes);
    expect(probes).toEqual({ own: 200, none: 404, guessed: 404, another: 404, truncated: 404 });
    const unknown = await read(mine.id, guessed);
    expect(unknown.body).toEqual((await read(randomUUID(), guessed)).body);
  });

  it('when a publishable key is used from an origin it does not list, then 403 ORIGIN_NOT_ALLOWED', async () => {
    const response = await stack.call('GET', `/api/v1/schedules/${scheduleId}`, {
      key: publishable,
      headers: { origin: 'https://evil.example' },
    });
    expect([response.status, response.body]).toEqual([
      403,
      { error: 'This key may not be used from this origin', code: 'ORIGIN_NOT_ALLOWED' },
    ]);
  });
});
