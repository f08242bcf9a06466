import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serviceDatabaseEnv } from '@scheduling-shop/testkit';
import { CALLER_ASSERTION_HEADER, createdOrganizationSchema, dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { callerAssertionSecretsSchema, callerAssertionSigner } from '@app/service-kit';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';

/** A service's own port, as something inside the network that is not the gateway would reach it. */
function serviceUrl(stack: E2eStack, name: string): string {
  const child = stack.children.find((entry) => entry.name === name);
  if (!child) throw new Error(`no ${name} process in the stack`);
  return `http://127.0.0.1:${child.port}`;
}

/**
 * An assertion minted with `service`'s own secret of the stack (what a thief of that one Secret could mint), for
 * `audience`, `ttlSeconds` long (negative: already expired).
 */
function mintedWithKeyOf(stack: E2eStack, service: string, audience: string, organizationId: string, ttlSeconds = 60): string {
  const [key] = callerAssertionSecretsSchema.parse(stack.assertionSecrets[service]);
  if (!key) throw new Error(`no caller assertion secret for ${service}`);
  return callerAssertionSigner(key, audience, ttlSeconds)({ organization_id: organizationId, key_type: 'secret' });
}

describe('a service reached on its own port, past the gateway', () => {
  let stack: E2eStack;
  let organization: { id: string; key: string };
  let scheduleId: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Direct Org' },
    });
    const { data } = dataEnvelope(createdOrganizationSchema).parse(created.body);
    organization = { id: data.id, key: data.api_key };
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key: organization.key,
      body: { name: 'Direct', timezone: 'UTC', slot_duration: 30 },
    });
    scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
  }, 120_000);
  afterAll(() => stack?.stop());

  it('when a booking is posted with only x-organization-id, then 401 and nothing is created in that organization', async () => {
    const response = await fetch(`${serviceUrl(stack, 'bookings')}/api/v1/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-id': organization.id, 'x-organization-timezone': 'UTC' },
      body: JSON.stringify({
        schedule_id: scheduleId,
        start_time: '2030-01-07T09:00:00Z',
        end_time: '2030-01-07T09:30:00Z',
        attendee: { name: 'Mallory', email: 'mallory@example.com' },
      }),
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Missing or invalid API key', code: 'UNAUTHORIZED' });
    const listed = await stack.call('GET', `/api/v1/bookings?schedule_id=${scheduleId}`, { key: organization.key });
    expect(listed.status).toBe(200);
    expect((listed.body as { data: unknown[] }).data).toEqual([]);
  });

  describe('with an assertion that is not the gateway’s for that service', () => {
    const ping = (name: string, token: string) =>
      fetch(`${serviceUrl(stack, name)}/api/v1/ping/${name}`, { headers: { [CALLER_ASSERTION_HEADER]: token } });

    it('when minted with bookings’ key for bookings, then bookings serves it (the key is what the gateway holds for it)', async () => {
      const response = await ping('bookings', mintedWithKeyOf(stack, 'bookings', 'bookings', organization.id));
      expect(response.status).toBe(200);
    });

    it.each([
      ['minted for bookings and replayed at catalog', () => mintedWithKeyOf(stack, 'bookings', 'bookings', organization.id)],
      ['minted with bookings’ stolen key, naming catalog', () => mintedWithKeyOf(stack, 'bookings', 'catalog', organization.id)],
      ['minted with catalog’s key but expired', () => mintedWithKeyOf(stack, 'catalog', 'catalog', organization.id, -30)],
      [
        'minted with catalog’s key and then tampered',
        () => {
          const [header, , mac] = mintedWithKeyOf(stack, 'catalog', 'catalog', organization.id).split('.');
          const claims = Buffer.from(
            JSON.stringify({ iss: 'gateway', aud: 'catalog', organization_id: organization.id, exp: 4102444800 }),
          ).toString('base64url');
          return `${header}.${claims}.${mac}`;
        },
      ],
    ])('when catalog gets an assertion %s, then 401', async (_case, token) => {
      const response = await ping('catalog', token());
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Missing or invalid API key', code: 'UNAUTHORIZED' });
    });
  });

  it('when probes and scrapers call a service without an assertion, then /healthz, /readyz and /metrics answer', async () => {
    for (const name of ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks']) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        expect((await fetch(`${serviceUrl(stack, name)}${path}`)).status, `${name}${path}`).toBe(200);
      }
    }
  });

  it('when the same booking goes through the gateway with the key, then it is created', async () => {
    const response = await stack.call('POST', '/api/v1/bookings', {
      key: organization.key,
      body: {
        schedule_id: scheduleId,
        start_time: '2030-01-07T09:00:00Z',
        end_time: '2030-01-07T09:30:00Z',
        attendee: { name: 'Ada', email: 'ada@example.com' },
      },
    });
    expect(response.status).toBe(201);
  });

  describe('Postgres, as a service connects to it', () => {
    /** Runs `sql` as the role `service` connects with (its DATABASE_URL in the stack); the SQLSTATE when refused. */
    async function asService(service: string, sql: string): Promise<{ rows: unknown[] } | { refused: string }> {
      const client = new pg.Client({ connectionString: serviceDatabaseEnv(inject('databaseUrl'), service).DATABASE_URL });
      await client.connect();
      try {
        return { rows: (await client.query(sql)).rows };
      } catch (error) {
        return { refused: String((error as { code?: string }).code) };
      } finally {
        await client.end();
      }
    }

    it("when bookings' role reads the gateway's API keys, then Postgres refuses: no privilege on that schema", async () => {
      expect(await asService('bookings', 'SELECT key_hash FROM identity.api_keys')).toEqual({ refused: '42501' });
      expect(await asService('bookings', 'SELECT id FROM identity.organizations')).toEqual({ refused: '42501' });
      // The gateway's own role does read them: the refusal is the role's, not a missing table.
      // (The database is the run's, shared by the suite's stacks: it holds this file's key and others'.)
      expect(await asService('gateway', 'SELECT count(*) > 0 AS readable FROM identity.api_keys')).toEqual({ rows: [{ readable: true }] });
    });

    it("when scheduling's role reads or writes bookings, then Postgres refuses", async () => {
      expect(await asService('scheduling', 'SELECT id FROM bookings.bookings')).toEqual({ refused: '42501' });
      expect(await asService('scheduling', 'DELETE FROM bookings.bookings')).toEqual({ refused: '42501' });
      expect(await asService('bookings', 'SELECT count(*)::int AS bookings FROM bookings.bookings')).toMatchObject({ rows: [{}] });
    });
  });
});
