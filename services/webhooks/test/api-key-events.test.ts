import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { apiKeyCreatedEvent, apiKeyRevokedEvent, webhookPayloadSchema, type ApiKeyRecord } from '@app/contracts';
import { feedOf } from './support/feed.js';
import { FeedProducers } from './support/feed-producers.js';
import { client, data, POLL, startWebhooks, type Running } from './support/harness.js';
import { Receiver } from './support/receiver.js';

// The gateway's IDENTITY stream is a public stream: its events reach webhooks and the change feed like any other's.
const prefix = `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
let running: Running;
let producers: FeedProducers;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  running = await startWebhooks({}, { natsPrefix: prefix });
  producers = await FeedProducers.start(prefix);
});
afterAll(async () => {
  await producers?.stop();
  await running?.stop();
  await receiver?.close();
});

function keyRecord(): ApiKeyRecord {
  return {
    id: randomUUID(),
    type: 'publishable',
    name: 'shop',
    prefix: 'pk_AbCdEfGhI',
    scopes: null,
    allowed_origins: ['https://shop.example.com'],
    created_at: '2031-03-01T09:00:00.000Z',
    last_used_at: null,
  };
}

describe('api_key.created and api_key.revoked (from the gateway)', { timeout: 60_000 }, () => {
  it('when the gateway publishes a key’s creation and revocation, then subscribed endpoints and the change feed get them with the key’s record', async () => {
    const api = client(running);
    const created = await api.post('/api/v1/webhook-endpoints', { url: receiver.url, events: ['api_key.created', 'api_key.revoked'] });
    expect(created.status).toBe(201);
    const secret = String(data(created).secret);
    const record = keyRecord();
    const createdId = await producers.record(apiKeyCreatedEvent, { id: record.id, type: record.type, record }, api.organizationId);
    const revokedId = await producers.record(apiKeyRevokedEvent, { id: record.id, type: record.type, record }, api.organizationId);

    await expect.poll(() => receiver.of(createdId).length + receiver.of(revokedId).length, POLL).toBe(2);
    for (const [id, type] of [
      [createdId, 'api_key.created'],
      [revokedId, 'api_key.revoked'],
    ] as const) {
      const delivery = receiver.of(id)[0]!;
      const body = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
      expect(body).toMatchObject({ id, type, data: record });
      expect(webhookPayloadSchema(type).safeParse(body).success).toBe(true);
    }

    const items = await feedOf(api, 2);
    expect(items.map((item) => [item.id, item.type, item.data])).toEqual([
      [createdId, 'api_key.created', record],
      [revokedId, 'api_key.revoked', record],
    ]);
  });
});
