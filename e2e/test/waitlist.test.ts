import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const POLL = { timeout: 60_000, interval: 200 };

/** A waitlist promotion through the gateway: its `registration.promoted` reaches the change feed and the webhooks. */
describe('registration.promoted through the gateway', () => {
  let stack: E2eStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000', WEBHOOKS_POLL_MS: '200' });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const dataOf = (reply: { body: unknown }) => (reply.body as { data: Record<string, unknown> }).data;

  it(
    'when a confirmed registration is cancelled, then the waiting one is promoted and the feed and the webhook carry it',
    { timeout: 150_000 },
    async () => {
      const { key } = await createOrganization(stack, 'Waitlist');
      await stack.call('POST', '/api/v1/webhook-endpoints', { key, body: { url: receiver.url, events: ['registration.promoted'] } });
      const event = dataOf(
        await stack.call('POST', '/api/v1/events', {
          key,
          body: { title: 'Sold out talk', start_date: '2031-05-20', start_time: '18:00', status: 'published', slots: 1, waitlist: true },
        }),
      );
      const registrations = `/api/v1/events/${String(event.id)}/registrations`;
      const first = dataOf(await stack.call('POST', registrations, { key, body: { name: 'Ann', email: 'ann@example.com' } }));
      const waiting = dataOf(await stack.call('POST', registrations, { key, body: { name: 'Bo', email: 'bo@example.com' } }));
      expect(waiting).toMatchObject({ status: 'waitlisted', waitlist_position: 1 });

      expect((await stack.call('DELETE', `${registrations}/${String(first.id)}`, { key })).status).toBe(200);

      const promoted = dataOf(await stack.call('GET', `${registrations}/${String(waiting.id)}`, { key }));
      expect(promoted).toMatchObject({ status: 'confirmed', waitlist_position: null });
      let item: Change | undefined;
      await expect
        .poll(async () => {
          const feed = await stack.call('GET', '/api/v1/changes?types=registration.promoted', { key });
          item = (feed.body as { data: Change[] }).data[0];
          return item?.type;
        }, POLL)
        .toBe('registration.promoted');
      expect(item?.data).toEqual(promoted);
      await expect.poll(() => receiver.received.some((delivery) => delivery.headers['webhook-id'] === item?.id), POLL).toBe(true);
      const delivered = receiver.received.find((delivery) => delivery.headers['webhook-id'] === item?.id);
      const { cursor: _cursor, ...sameAsWebhook } = item ?? {};
      expect(JSON.parse(delivered?.body ?? '{}')).toEqual(sameAsWebhook);
    },
  );
});
