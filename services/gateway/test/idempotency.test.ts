import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIdempotentCreates, postWithKey, startedForTests, type IdempotentCaller } from '@app/service-testing';
import { startEchoUpstreams, startStandIn, type Echo, type EchoUpstreams } from './support/echo-upstreams.js';
import { createOrganization, startGateway, type Gateway } from './support/harness.js';

describe('Idempotency-Key on the admin API', () => {
  let upstreams: EchoUpstreams;
  const gateways: Gateway[] = [];
  beforeAll(async () => {
    upstreams = await startEchoUpstreams();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await upstreams.close();
  });

  /** Keys are per admin token: each caller is a gateway (on the shared database) with an admin token of its own. */
  async function adminCaller(
    url: (gateway: Gateway) => Promise<string>,
    bodies: Record<'same' | 'other', unknown>,
    count: (gateway: Gateway) => Promise<number>,
  ) {
    const token = `admin-${randomUUID()}`;
    const gateway = await startGateway({ ...upstreams.env, ADMIN_TOKEN: token });
    gateways.push(gateway);
    const path = await url(gateway);
    const caller: IdempotentCaller = {
      create: (key, body = 'same') => postWithKey(gateway.app, path, { authorization: `Bearer ${token}` }, key, bodies[body]),
      count: () => count(gateway),
    };
    return caller;
  }
  const countOf = async (gateway: Gateway, sql: string, values: unknown[]) =>
    Number((await gateway.infra.pool.query<{ count: string }>(sql, values)).rows[0]?.count);

  // The admin API has no list endpoints: the records are counted in the identity schema.
  describeIdempotentCreates([
    {
      name: 'POST /admin/v1/organizations',
      async arrange() {
        const names = { same: `Acme ${randomUUID()}`, other: `Globex ${randomUUID()}` };
        return adminCaller(
          async () => '/admin/v1/organizations',
          { same: { name: names.same }, other: { name: names.other, timezone: 'Europe/Berlin' } },
          (gateway) => countOf(gateway, 'SELECT count(*) FROM organizations WHERE name = ANY($1)', [Object.values(names)]),
        );
      },
    },
    {
      name: 'POST /admin/v1/organizations/{id}/api-keys',
      async arrange() {
        let organizationId = '';
        return adminCaller(
          async (gateway) => {
            const created = await gateway.app.inject({
              method: 'POST',
              url: '/admin/v1/organizations',
              headers: { authorization: `Bearer ${gateway.infra.config.ADMIN_TOKEN}` },
              payload: { name: 'Key holder' },
            });
            organizationId = String(created.json().data.id);
            return `/admin/v1/organizations/${organizationId}/api-keys`;
          },
          { same: { name: 'ci' }, other: { name: 'deploy' } },
          (gateway) => countOf(gateway, `SELECT count(*) FROM api_keys WHERE organization_id = $1 AND name <> 'default'`, [organizationId]),
        );
      },
    },
  ]);
});

describe('Idempotency-Key through the gateway', () => {
  const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
  // A bookings stand-in answering like a replay: the echo of what arrived, with `idempotent-replayed: true`.
  const bookings = startedForTests(() =>
    startStandIn((app) =>
      app.post('/api/v1/bookings', async (request, reply) =>
        reply
          .code(201)
          .header('idempotent-replayed', 'true')
          .send({ headers: request.headers } satisfies Pick<Echo, 'headers'>),
      ),
    ),
  );
  const gateway = startedForTests(() => startGateway({ ...upstreams.env, BOOKINGS_URL: bookings.url }));

  it('when a client sends an Idempotency-Key, then the service receives it and the client receives idempotent-replayed', async () => {
    const org = await createOrganization(gateway, 'Keyed Co');
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { authorization: `Bearer ${org.api_key}`, 'idempotency-key': 'key-through-gateway' },
      payload: { schedule_id: randomUUID() },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['idempotent-replayed']).toBe('true');
    expect(response.json().headers['idempotency-key']).toBe('key-through-gateway');
  });
});
