import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeIdempotentCreates,
  describeServiceBasics,
  listedCount,
  organizationHeaders,
  postWithKey,
  startedForTests,
} from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { client, data, list, startWebhooks, type Client } from './support/harness.js';

const URL_ = 'https://hooks.example.com/in';

const running = startedForTests(startWebhooks);

async function created(api: Client, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const reply = await api.post('/api/v1/webhook-endpoints', { url: URL_, ...body });
  expect(reply.status).toBe(201);
  return data(reply);
}

describe('webhooks service', () => {
  describeServiceBasics({
    running: () => running,
    schema: SCHEMA,
    prismaSchema: new URL('../prisma/schema.prisma', import.meta.url),
    paths: [
      '/api/v1/webhook-endpoints',
      '/api/v1/webhook-endpoints/{id}',
      '/api/v1/webhook-endpoints/{id}/deliveries',
      '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}',
      '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
      '/api/v1/webhook-endpoints/{id}/secret',
      '/api/v1/webhook-endpoints/{id}/secret/rotate',
      '/api/v1/webhook-endpoints/{id}/test',
    ],
  });
});

describe('/api/v1/webhook-endpoints', () => {
  it('when created, then the answer has every field and a whsec_ secret of 24 to 64 random bytes', async () => {
    const api = client(running);
    const endpoint = await created(api, { events: ['booking.created', 'booking.created'], description: 'CRM' });

    expect(endpoint).toEqual({
      id: expect.any(String),
      url: URL_,
      events: ['booking.created'],
      description: 'CRM',
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
    const bytes = Buffer.from(String(endpoint.secret).slice('whsec_'.length), 'base64').length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(64);
  });

  it('when created without events, then it subscribes to all ("*") and is enabled', async () => {
    expect(await created(client(running))).toMatchObject({ events: ['*'], enabled: true, description: null });
  });

  it('when read, patched or listed, then the secret is never shown; GET .../secret shows it', async () => {
    const api = client(running);
    const endpoint = await created(api);
    const id = String(endpoint.id);
    const reads = [
      data(await api.get(`/api/v1/webhook-endpoints/${id}`)),
      data(await api.patch(`/api/v1/webhook-endpoints/${id}`, { description: 'x' })),
      ...list(await api.get('/api/v1/webhook-endpoints')),
    ];
    for (const read of reads) expect(read).not.toHaveProperty('secret');
    expect(JSON.stringify(reads)).not.toContain(String(endpoint.secret));
    expect((await api.get(`/api/v1/webhook-endpoints/${id}/secret`)).body).toEqual({ data: { secret: endpoint.secret } });
  });

  it('when patched, then the fields change; disabling and enabling again clears disabled_reason', async () => {
    const api = client(running);
    const id = String((await created(api)).id);
    const patched = await api.patch(`/api/v1/webhook-endpoints/${id}`, {
      url: 'https://other.example.com/x',
      events: ['product.created'],
      description: null,
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expect(data(patched)).toMatchObject({
      url: 'https://other.example.com/x',
      events: ['product.created'],
      description: null,
      enabled: false,
    });
    expect(data(await api.patch(`/api/v1/webhook-endpoints/${id}`, { enabled: true }))).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
  });

  it('when listed, then it pages with the conventions of every list', async () => {
    const api = client(running);
    for (let index = 0; index < 3; index += 1) await created(api, { description: `#${index}` });
    const page = await api.get('/api/v1/webhook-endpoints?limit=2&offset=1');
    expect(page.body.meta).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false, next_cursor: null });
    expect(list(page).map((endpoint) => endpoint.description)).toEqual(['#1', '#2']);
    expect((await api.get('/api/v1/webhook-endpoints?limit=500')).status).toBe(400);
  });

  it('when deleted, then it is gone (404 afterwards)', async () => {
    const api = client(running);
    const id = String((await created(api)).id);
    expect((await api.delete(`/api/v1/webhook-endpoints/${id}`)).body).toEqual({ data: { id, deleted: true } });
    expect((await api.get(`/api/v1/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/webhook-endpoints/${id}`)).status).toBe(404);
  });

  it('when the id is malformed or unknown, then 404 NOT_FOUND', async () => {
    const api = client(running);
    for (const id of ['not-a-uuid', randomUUID()]) {
      const reply = await api.get(`/api/v1/webhook-endpoints/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'Webhook endpoint not found', code: 'NOT_FOUND' });
    }
  });
});

describe('validation', () => {
  it.each([
    [{}, 'url is required'],
    [{ url: 'not a url' }, 'url must be an absolute URL'],
    [{ url: 'ftp://example.com/x' }, 'url must be http(s)'],
    [{ url: URL_, events: ['booking.created', 'booking.exploded'] }, 'events has unknown event type booking.exploded'],
    [{ url: URL_, events: [] }, 'events must name at least one event type'],
    [{ url: URL_, events: ['calendar.busy.updated'] }, 'events has unknown event type calendar.busy.updated'],
    [{ url: URL_, events: ['calendar.booking_event.changed'] }, 'events has unknown event type calendar.booking_event.changed'],
    [{ url: URL_, enabled: 'yes' }, 'enabled must be a boolean'],
    [{ url: URL_, secret: 'whsec_mine' }, 'body has unknown field secret'],
  ])('when the body is %j, then 400 "%s" in the error shape', async (body, message) => {
    const reply = await client(running).post('/api/v1/webhook-endpoints', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: message, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ message })] });
  });

  it('when the deliveries status filter is unknown, then 400', async () => {
    const api = client(running);
    const id = String((await created(api)).id);
    const reply = await api.get(`/api/v1/webhook-endpoints/${id}/deliveries?status=lost`);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('VALIDATION_ERROR');
  });

  it('when http:// is not allowed (WEBHOOKS_ALLOW_HTTP=false), then only https:// is accepted', async () => {
    const strict = await startWebhooks({ WEBHOOKS_ALLOW_HTTP: 'false' });
    try {
      const api = client(strict);
      expect((await api.post('/api/v1/webhook-endpoints', { url: 'http://example.com/x' })).body).toMatchObject({
        error: 'url must be https',
        code: 'VALIDATION_ERROR',
      });
      expect((await api.post('/api/v1/webhook-endpoints', { url: URL_ })).status).toBe(201);
    } finally {
      await strict.stop();
    }
  });
});

describe('another organization', () => {
  let owner: Client;
  let stranger: Client;
  let id: string;
  let deliveryId: string;
  beforeAll(async () => {
    owner = client(running);
    stranger = client(running);
    id = String((await created(owner)).id);
    deliveryId = String(data(await owner.post(`/api/v1/webhook-endpoints/${id}/test`)).id);
  });

  it.each([
    ['GET', () => `/api/v1/webhook-endpoints/${id}`, undefined],
    ['PATCH', () => `/api/v1/webhook-endpoints/${id}`, { description: 'hijacked' }],
    ['DELETE', () => `/api/v1/webhook-endpoints/${id}`, undefined],
    ['GET', () => `/api/v1/webhook-endpoints/${id}/secret`, undefined],
    ['POST', () => `/api/v1/webhook-endpoints/${id}/secret/rotate`, undefined],
    ['POST', () => `/api/v1/webhook-endpoints/${id}/test`, undefined],
    ['GET', () => `/api/v1/webhook-endpoints/${id}/deliveries`, undefined],
    ['GET', () => `/api/v1/webhook-endpoints/${id}/deliveries/${deliveryId}`, undefined],
    ['POST', () => `/api/v1/webhook-endpoints/${id}/deliveries/${deliveryId}/retry`, undefined],
  ] as const)('when it calls %s on an endpoint it does not own, then 404', async (method, url, body) => {
    expect(await stranger.request(method, url(), body)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('when it lists, then it never sees the endpoints of others; the owner still has everything', async () => {
    expect((await stranger.get('/api/v1/webhook-endpoints')).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect(data(await owner.get(`/api/v1/webhook-endpoints/${id}`)).description).toBeNull();
  });
});

describe('Idempotency-Key on the webhooks service', () => {
  describeIdempotentCreates([
    {
      name: 'POST /api/v1/webhook-endpoints',
      arrange: async () => {
        const headers = organizationHeaders();
        const bodies = { same: { url: URL_ }, other: { url: 'https://other.example.com/in' } };
        return {
          create: (key, body = 'same') => postWithKey(running.app, '/api/v1/webhook-endpoints', headers, key, bodies[body]),
          count: () => listedCount(running.app, '/api/v1/webhook-endpoints', headers),
        };
      },
    },
  ]);
});
