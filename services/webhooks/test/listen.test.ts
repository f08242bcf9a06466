import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { bookingCreatedEvent } from '@app/contracts';
import { startListener, type RunningListener } from '../src/cli/listener.js';
import { bookingState, client, data, POLL, publishEvent, startWebhooks } from './support/harness.js';

/** `npm run webhooks:listen`: the receiver it starts, against the service's real deliveries. */
describe('webhooks:listen', () => {
  const running = startedForTests(startWebhooks);

  async function endpointWithListener(
    fail: boolean,
  ): Promise<{ lines: string[]; listener: RunningListener; api: ReturnType<typeof client>; id: string }> {
    const api = client(running);
    // The secret comes from the endpoint, the URL from the listener: create, start, then point the endpoint at it.
    const created = data(await api.post('/api/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/placeholder' }));
    const lines: string[] = [];
    const listener = await startListener({ port: 0, secret: String(created.secret), fail, print: (line) => lines.push(line) });
    const id = String(created.id);
    await api.patch(`/api/v1/webhook-endpoints/${id}`, { url: listener.url });
    return { lines, listener, api, id };
  }

  it('when a delivery arrives, then it is verified, printed with its type and webhook-id, and answered 2xx', async () => {
    const { lines, listener, api } = await endpointWithListener(false);
    try {
      const booking = bookingState();
      const eventId = await publishEvent(running, bookingCreatedEvent, booking, api.organizationId);
      await expect.poll(() => lines.join('\n'), POLL).toContain(`✔`);
      expect(lines[0]).toMatch(new RegExp(`^✔ \\S+ booking\\.created webhook-id=${eventId} → 204$`));
      expect(JSON.parse(lines[1] ?? '')).toEqual(booking);
    } finally {
      await listener.close();
    }
  });

  it('when told to fail, then it answers 500 and the service retries the same webhook-id', async () => {
    const { lines, listener, api } = await endpointWithListener(true);
    try {
      const eventId = await publishEvent(running, bookingCreatedEvent, bookingState(), api.organizationId);
      await expect.poll(() => lines.filter((line) => line.startsWith('✔')).length, POLL).toBe(3);
      for (const line of lines.filter((entry) => entry.startsWith('✔'))) expect(line).toContain(`webhook-id=${eventId} → 500`);
    } finally {
      await listener.close();
    }
  });

  it('when a request is not signed with its secret, then it is refused with 400 and printed as such', async () => {
    const lines: string[] = [];
    const listener = await startListener({ port: 0, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', print: (line) => lines.push(line) });
    try {
      const response = await fetch(listener.url, {
        method: 'POST',
        headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9v' },
        body: '{}',
      });
      expect(response.status).toBe(400);
      expect(lines[0]).toMatch(/^✘ .* webhook-id=msg_1: .* → 400$/);
    } finally {
      await listener.close();
    }
  });
});
