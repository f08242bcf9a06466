import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { startWebhooks } from './support/harness.js';

const running = startedForTests(startWebhooks);

/** The service's own answer (no gateway in front): the kit says no-store by itself. */
function call(method: 'GET' | 'POST', url: string, organizationId: string, extra: { payload?: object; key?: string } = {}) {
  return running.app.inject({
    method,
    url,
    headers: { ...organizationHeaders(organizationId, 'UTC'), ...(extra.key ? { 'idempotency-key': extra.key } : {}) },
    ...(extra.payload ? { payload: extra.payload } : {}),
  });
}

describe('POST /api/v1/webhook-endpoints', () => {
  it('when created, and when the create is replayed by its Idempotency-Key, then both answers carry Cache-Control: no-store', async () => {
    const organizationId = randomUUID();
    const body = { url: 'https://hooks.example.com/in' };
    const key = randomUUID();

    const first = await call('POST', '/api/v1/webhook-endpoints', organizationId, { payload: body, key });
    const replay = await call('POST', '/api/v1/webhook-endpoints', organizationId, { payload: body, key });

    expect(first.statusCode).toBe(201);
    expect(first.json().data.secret).toMatch(/^whsec_/);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.secret).toBe(first.json().data.secret);
    expect(replay.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/v1/webhook-endpoints/:id/secret', () => {
  it('when the secret is read, rotated, or asked of an endpoint that does not exist, then the answer carries Cache-Control: no-store', async () => {
    const organizationId = randomUUID();
    const created = await call('POST', '/api/v1/webhook-endpoints', organizationId, { payload: { url: 'https://hooks.example.com/in' } });
    const id = String(created.json().data.id);

    const secret = await call('GET', `/api/v1/webhook-endpoints/${id}/secret`, organizationId);
    const rotated = await call('POST', `/api/v1/webhook-endpoints/${id}/secret/rotate`, organizationId);
    const missing = await call('GET', `/api/v1/webhook-endpoints/${randomUUID()}/secret`, organizationId);

    expect(secret.statusCode).toBe(200);
    expect(secret.headers['cache-control']).toBe('no-store');
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});
