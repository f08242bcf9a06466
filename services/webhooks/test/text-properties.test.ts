import { describe, it } from 'vitest';
import { createWebhookEndpointBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated, startedForTests, type InjectedReply } from '@app/service-testing';
import { client, startWebhooks } from './support/harness.js';

const running = startedForTests(startWebhooks);

const idOf = (reply: InjectedReply) => String((reply.body.data as { id: string }).id);

describe('POST /api/v1/webhook-endpoints (any text)', () => {
  it.each([[['description']], [['url']], [['events', 0]]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      const api = client(running);
      await expectTextStoredAsValidated({
        schema: createWebhookEndpointBodySchema,
        body: () => ({ url: 'https://hooks.example.com/in', events: ['booking.created'], description: 'CRM sync' }),
        path,
        create: (body) => api.post('/api/v1/webhook-endpoints', body),
        read: (created) => api.get(`/api/v1/webhook-endpoints/${idOf(created)}`),
      });
    },
  );
});
