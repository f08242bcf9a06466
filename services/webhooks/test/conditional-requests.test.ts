import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConditionalRequests, eventually, organizationHeaders, recordRequests } from '@app/service-testing';
import { client, data, POLL, startWebhooks, type Running } from './support/harness.js';
import { Receiver } from './support/receiver.js';

let running: Running;
let receiver: Receiver;
beforeAll(async () => {
  [running, receiver] = await Promise.all([startWebhooks(), Receiver.start()]);
});
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
});

/** An endpoint of an organization of its own, at the receiver (which answers 200). */
async function newEndpoint() {
  const api = client(running);
  const reply = await api.post('/api/v1/webhook-endpoints', { url: receiver.url, description: 'Back office' });
  expect(reply.status).toBe(201);
  return { api, id: String(data(reply).id) };
}

/** Waits until the delivery has succeeded after `attempts` attempts (the receiver answers 200). */
async function settled(api: ReturnType<typeof client>, url: string, attempts: number) {
  await eventually(async () => {
    const delivery = data(await api.get(url));
    return delivery.status === 'succeeded' && delivery.attempts === attempts ? delivery : undefined;
  }, POLL.timeout);
}

describeConditionalRequests([
  {
    name: 'a webhook endpoint',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const { api, id } = await newEndpoint();
      const calls = recordRequests(running.app, organizationHeaders(api.organizationId), `/api/v1/webhook-endpoints/${id}`);
      return { ...calls, patch: (headers, n) => calls.patch(headers, { description: `Back office ${n}` }), state: calls.data };
    },
  },
  {
    name: 'a webhook delivery',
    has: { get: true, change: true },
    async arrange() {
      const { api, id } = await newEndpoint();
      const test = await api.post(`/api/v1/webhook-endpoints/${id}/test`, {});
      expect(test.status).toBe(202);
      const url = `/api/v1/webhook-endpoints/${id}/deliveries/${String(data(test).id)}`;
      await settled(api, url, 1);
      const calls = recordRequests(running.app, organizationHeaders(api.organizationId), url);
      let attempts = 1;
      return {
        get: calls.get,
        state: calls.data,
        // Sent again: one more attempt in its log.
        async change() {
          expect((await api.post(`${url}/retry`, {})).status).toBe(202);
          attempts += 1;
          await settled(api, url, attempts);
        },
      };
    },
  },
]);

describe("an endpoint's ETag and what its record does not show", () => {
  it('when its secret is read and its deliveries fail, then the ETag changes only by what GET shows', async () => {
    const { api, id } = await newEndpoint();
    const calls = recordRequests(running.app, organizationHeaders(api.organizationId), `/api/v1/webhook-endpoints/${id}`);
    const etag = String((await calls.get({})).headers.etag);
    await api.get(`/api/v1/webhook-endpoints/${id}/secret`);
    // What a failed attempt writes on its endpoint: the start of its failure clock.
    await running.infra.pool.query('UPDATE webhooks.webhook_endpoints SET failing_since = now() WHERE id = $1', [id]);
    expect((await calls.get({ 'if-none-match': etag })).status).toBe(304);

    const rotated = await api.post(`/api/v1/webhook-endpoints/${id}/secret/rotate`, {});
    expect(rotated.status).toBe(200);
    // A rotation moves updated_at, which the record shows.
    expect((await calls.get({ 'if-none-match': etag })).status).toBe(200);
  });
});
