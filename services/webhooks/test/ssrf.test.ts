import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingCreatedEvent } from '@app/contracts';
import { Receiver } from './support/receiver.js';
import { bookingState, client, data, list, POLL, publishEvent, startWebhooks, type Running } from './support/harness.js';

const PUBLIC: LookupAddress = { address: '93.184.216.34', family: 4 };
const LOOPBACK: LookupAddress = { address: '127.0.0.1', family: 4 };
const REFUSED = { error: 'url must be a public http(s) address', code: 'VALIDATION_ERROR' };

/** What the test's resolver answers per name: `rebinding.test` changes its answer between the check and the connect. */
const answers = new Map<string, LookupAddress[]>([
  ['public.test', [PUBLIC]],
  ['mixed.test', [PUBLIC, LOOPBACK]],
  ['rebinding.test', [PUBLIC]],
]);

let running: Running;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
  running = await startWebhooks(
    { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOKS_ALLOW_HTTP: 'true' },
    {
      async resolve(hostname) {
        const known = answers.get(hostname);
        if (known) return known;
        if (hostname === 'localhost') return [LOOPBACK, { address: '::1', family: 6 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
    },
  );
});
afterAll(async () => {
  await running.stop();
  await receiver.close();
});

describe('SSRF: endpoint URLs (WEBHOOKS_ALLOW_PRIVATE_TARGETS=false)', () => {
  it.each([
    ['loopback IPv4', 'http://127.0.0.1:8080/x'],
    ['private IPv4 10/8', 'https://10.0.0.5/x'],
    ['private IPv4 172.16/12', 'https://172.16.3.4/x'],
    ['private IPv4 192.168/16', 'https://192.168.0.10/x'],
    ['link-local IPv4 (metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['multicast IPv4', 'https://239.1.2.3/x'],
    ['unspecified IPv4', 'http://0.0.0.0:3000/x'],
    ['loopback IPv4, integer form', 'http://2130706433/x'],
    ['loopback IPv6', 'http://[::1]:3000/x'],
    ['unspecified IPv6', 'http://[::]/x'],
    ['link-local IPv6', 'https://[fe80::1]/x'],
    ['unique local IPv6', 'https://[fd12:3456::1]/x'],
    ['multicast IPv6', 'https://[ff02::1]/x'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/x'],
    ['IPv4-mapped IPv6 private', 'http://[::ffff:192.168.1.1]/x'],
    ['IPv4-compatible IPv6 loopback', 'http://[::127.0.0.1]/x'],
    ['NAT64 of the metadata address', 'http://[64:ff9b::169.254.169.254]/x'],
    ['6to4 of a private address', 'https://[2002:a00:1::1]/x'],
    ['a name resolving to 127.0.0.1 (localhost)', 'http://localhost:3000/x'],
    ['a name with one private address among public ones', 'https://mixed.test/x'],
    ['a name that does not resolve', 'https://nowhere.test/x'],
  ])('when the URL is %s, then create is 400 "url must be a public http(s) address"', async (_kind, url) => {
    const reply = await client(running).post('/api/v1/webhook-endpoints', { url });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ...REFUSED, details: [{ path: 'url', message: REFUSED.error }] });
  });

  it('when a PATCH moves the URL to a private address, then it is refused too', async () => {
    const api = client(running);
    const id = String(data(await api.post('/api/v1/webhook-endpoints', { url: 'https://public.test/x' })).id);
    const reply = await api.patch(`/api/v1/webhook-endpoints/${id}`, { url: 'http://localhost/x' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject(REFUSED);
  });

  it('when the URL is a public name, then it is accepted', async () => {
    expect((await client(running).post('/api/v1/webhook-endpoints', { url: 'https://public.test/hooks' })).status).toBe(201);
  });

  it('when a name resolves to 127.0.0.1 only at delivery time (DNS rebinding), then the connection is refused', async () => {
    const api = client(running);
    // Checked at create while the name answers a public address; afterwards it points at the receiver on loopback.
    const port = new URL(receiver.url).port;
    const created = await api.post('/api/v1/webhook-endpoints', { url: `http://rebinding.test:${port}/hooks` });
    expect(created.status).toBe(201);
    answers.set('rebinding.test', [LOOPBACK]);
    const id = String(data(created).id);
    const eventId = await publishEvent(running, bookingCreatedEvent, bookingState(), api.organizationId);

    await expect.poll(async () => list(await api.get(`/api/v1/webhook-endpoints/${id}/deliveries`))[0]?.attempts, POLL).toBeGreaterThan(0);
    const [delivery] = list(await api.get(`/api/v1/webhook-endpoints/${id}/deliveries`));
    expect(delivery).toMatchObject({ event_id: eventId, last_response_status: null });
    expect(delivery?.last_error).toEqual(expect.stringContaining('127.0.0.1, not a public address'));
    expect(receiver.received).toEqual([]);
  });
});
