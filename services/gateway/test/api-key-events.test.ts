import { describe, expect, it } from 'vitest';
import { IDENTITY_STREAM, webhookEventOf } from '@app/contracts';
import { ADMIN_TOKEN, createOrganization, gatewayBehindEchoes, type Gateway } from './support/harness.js';
import { createKey } from './support/api-keys.js';

const POLL = { timeout: 10_000, interval: 100 };

interface Published {
  type: string;
  organization_id: string;
  data: Record<string, unknown>;
}

/** The events of the IDENTITY stream about one key, in order. */
async function eventsOf(gateway: Gateway, keyId: string): Promise<Published[]> {
  const { bus } = gateway.infra;
  const stream = bus.streamName(IDENTITY_STREAM.name);
  const info = await bus.jsm.streams.info(stream).catch(() => null);
  if (!info) return [];
  const found: Published[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq += 1) {
    const message = await bus.jsm.streams.getMessage(stream, { seq }).catch(() => null);
    const event = message?.json<Published>();
    if (event?.data.id === keyId) found.push(event);
  }
  return found;
}

describe('api_key.created and api_key.revoked', () => {
  const fixture = gatewayBehindEchoes();

  it('when a key is created and revoked, then both events are published with its record and never the key', async () => {
    const org = await createOrganization(fixture.gateway);
    const created = await createKey(fixture.gateway, org.api_key, {
      name: 'shop',
      type: 'publishable',
      allowed_origins: ['https://shop.example.com'],
    });
    const { key, ...record } = created;
    const revoked = await fixture.gateway.app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${created.id}`,
      headers: { authorization: `Bearer ${org.api_key}` },
    });
    expect(revoked.statusCode).toBe(200);

    await expect
      .poll(async () => (await eventsOf(fixture.gateway, created.id)).map((event) => event.type), POLL)
      .toEqual(['identity.api_key.created', 'identity.api_key.revoked']);
    const events = await eventsOf(fixture.gateway, created.id);
    for (const event of events) {
      expect(event.organization_id).toBe(org.id);
      expect(event.data.record).toEqual(record);
      expect(JSON.stringify(event)).not.toContain(key);
      expect(JSON.stringify(event)).not.toContain(key.slice(12)); // nor its secret part, nor its hash's source
    }
    // As webhooks and the change feed show them (the webhooks service reads every public stream).
    expect(webhookEventOf(events[0]!.type, events[0]!.data)).toMatchObject({ type: 'api_key.created', data: record });
    expect(webhookEventOf(events[1]!.type, events[1]!.data)).toMatchObject({ type: 'api_key.revoked', data: record });
  });

  it('when an organization is created or the admin makes or revokes a key, then those are published too', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const org = await createOrganization(fixture.gateway);
    const first = (await fixture.gateway.infra.pool.query('SELECT id FROM identity.api_keys WHERE organization_id = $1', [org.id])).rows[0]
      .id;
    await expect
      .poll(async () => (await eventsOf(fixture.gateway, first)).map((event) => event.type), POLL)
      .toEqual(['identity.api_key.created']);
    const made = await fixture.gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/organizations/${org.id}/api-keys`,
      headers: admin,
      payload: {},
    });
    const id = made.json().data.id;
    await fixture.gateway.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${id}`, headers: admin });
    await expect
      .poll(async () => (await eventsOf(fixture.gateway, id)).map((event) => event.type), POLL)
      .toEqual(['identity.api_key.created', 'identity.api_key.revoked']);
  });
});
