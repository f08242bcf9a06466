import { describe, expect, it } from 'vitest';
import { startTestService } from '@app/service-testing';
import { prismaAdapter, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from '../src/app.js';
import { configSchema, type Config } from '../src/config.js';
import { IdentityRepository } from '../src/identity/identity.repository.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { SCHEMA, service } from '../src/service.js';
import { ADMIN_TOKEN, createOrganization, gatewayBehindEchoes, gatewayForThisTest } from './support/harness.js';

const UNKNOWN_KEY = (n: number) => `sk_unknown${String(n).padStart(5, '0')}unknownunknownunknown`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The gateway as service.ts builds it, with its key lookups counted (each one is a database query). */
function countingLookups(): { definition: ServiceDefinition<Config>; lookups: () => number } {
  let lookups = 0;
  const definition: ServiceDefinition<Config> = {
    ...service,
    async build(infra) {
      const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
      const identity = new IdentityRepository(prisma);
      const find = identity.findKeyIdentity.bind(identity);
      identity.findKeyIdentity = async (key) => {
        lookups += 1;
        return find(key);
      };
      const app = await buildApp({ config: infra.config, identity, log: infra.log, readiness: infra.readiness });
      return { app, close: () => prisma.$disconnect() };
    },
  };
  return { definition, lookups: () => lookups };
}

describe('failed authentication per IP (AUTH_FAILURES_MAX)', () => {
  it('when an IP has failed AUTH_FAILURES_MAX times, then its requests with a key are 429 RATE_LIMITED with Retry-After, before any lookup', async () => {
    const { definition, lookups } = countingLookups();
    const gateway = await gatewayForThisTest((env) =>
      startTestService(definition, configSchema, { ...env, ADMIN_TOKEN, AUTH_FAILURES_MAX: '3' }),
    );
    const org = await createOrganization(gateway);
    const attacker = { remoteAddress: '198.51.100.7' };
    for (let n = 0; n < 3; n++) {
      const response = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(UNKNOWN_KEY(n)), ...attacker });
      expect(response.statusCode).toBe(401);
    }
    const before = lookups();

    const refused = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(UNKNOWN_KEY(99)), ...attacker });
    const validKey = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(org.api_key), ...attacker });
    const publicPath = await gateway.app.inject({ url: '/api/bookings/slots', headers: bearer(UNKNOWN_KEY(98)), ...attacker });
    const admin = await gateway.app.inject({ method: 'POST', url: '/admin/v1/organizations', headers: bearer(ADMIN_TOKEN), ...attacker });

    for (const response of [refused, validKey, publicPath, admin]) {
      expect(response.statusCode).toBe(429);
      expect(response.json()).toEqual({ error: expect.stringMatching(/^Too many failed authentication attempts/), code: 'RATE_LIMITED' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(1);
    }
    expect(lookups()).toBe(before); // nothing was looked up
    // Another IP is not affected.
    const other = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(org.api_key), remoteAddress: '198.51.100.8' });
    expect(other.statusCode).toBe(200);
  });

  it('when wrong admin tokens are tried, then they count too, and the right one is refused once over the limit', async () => {
    const { definition } = countingLookups();
    const gateway = await gatewayForThisTest((env) =>
      startTestService(definition, configSchema, { ...env, ADMIN_TOKEN, AUTH_FAILURES_MAX: '2' }),
    );
    const attempt = (token: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/organizations',
        headers: bearer(token),
        payload: { name: 'X' },
        remoteAddress: '198.51.100.9',
      });
    expect((await attempt('wrong-admin-token-1')).statusCode).toBe(401);
    expect((await attempt('wrong-admin-token-2')).statusCode).toBe(401);
    expect((await attempt(ADMIN_TOKEN)).statusCode).toBe(429);
  });
});

describe('failed authentication per IP: keys in use are not locked out', () => {
  it('when an address has sent 60 bad keys, then a key that authenticated before is still served; a key never used and the admin token get 429', async () => {
    const { definition, lookups } = countingLookups();
    const gateway = await gatewayForThisTest((env) => startTestService(definition, configSchema, { ...env, ADMIN_TOKEN })); // AUTH_FAILURES_MAX: 30
    const proxy = { remoteAddress: '198.51.100.20' }; // one load balancer in front of every client
    const inUse = await createOrganization(gateway);
    const unused = await createOrganization(gateway);
    expect((await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(inUse.api_key), ...proxy })).statusCode).toBe(200);
    for (let n = 0; n < 60; n++) await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(UNKNOWN_KEY(n)), ...proxy });
    const before = lookups();

    const served = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(inUse.api_key), ...proxy });
    const neverUsed = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(unused.api_key), ...proxy });
    const guess = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(UNKNOWN_KEY(61)), ...proxy });
    const admin = await gateway.app.inject({ method: 'POST', url: '/admin/v1/organizations', headers: bearer(ADMIN_TOKEN), ...proxy });

    expect(served.statusCode).toBe(200);
    expect(served.json().service).toBe('bookings');
    for (const response of [neverUsed, guess, admin]) {
      expect(response.statusCode).toBe(429);
      expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' });
    }
    expect(lookups()).toBe(before); // the refused ones were not looked up (the served key was cached)
  });

  it('when a key in use is revoked while its address is over the limit, then it is refused, and then 429 like any other', async () => {
    const gateway = await gatewayForThisTest((env) =>
      startTestService(service, configSchema, { ...env, ADMIN_TOKEN, AUTH_FAILURES_MAX: '2' }),
    );
    const proxy = { remoteAddress: '198.51.100.21' };
    const org = await createOrganization(gateway);
    const second = await gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/organizations/${org.id}/api-keys`,
      headers: bearer(ADMIN_TOKEN),
      payload: {},
    });
    const key = second.json().data as { id: string; key: string };
    expect((await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(key.key), ...proxy })).statusCode).toBe(200);
    for (let n = 0; n < 2; n++) await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(UNKNOWN_KEY(n)), ...proxy });
    await gateway.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${key.id}`, headers: bearer(ADMIN_TOKEN) });

    const revoked = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(key.key), ...proxy });
    const again = await gateway.app.inject({ url: '/api/v1/bookings', headers: bearer(key.key), ...proxy });

    expect(revoked.statusCode).toBe(401);
    expect(again.statusCode).toBe(429);
  });
});

describe('paths spelled with percent-encoding', () => {
  const fixture = gatewayBehindEchoes();
  const BOGUS = bearer('sk_bogusbogusbogusbogusbogus1234');

  it.each(['/api/bookings/slots', '/%61pi/bookings/slots', '/api/bookings/%73lots', '/%61%70%69/bookings/slots'])(
    'when %s is asked with a bogus key, then 401 (auth judges the path the router matched)',
    async (url) => {
      const response = await fixture.gateway.app.inject({ url, headers: BOGUS });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Missing or invalid API key', code: 'UNAUTHORIZED' });
    },
  );

  it.each(['/api/v1/bookings', '/%61pi/v1/bookings', '/api/v1/%62ookings', '/api/%76%31/bookings'])(
    'when %s is asked without a key, then 401; with a valid key, then it reaches bookings',
    async (url) => {
      expect((await fixture.gateway.app.inject({ url })).statusCode).toBe(401);
      const org = await createOrganization(fixture.gateway);
      const response = await fixture.gateway.app.inject({ url, headers: bearer(org.api_key) });
      expect(response.statusCode).toBe(200);
      expect(response.json().service).toBe('bookings');
    },
  );

  it('when an unknown /api/v1 path is spelled with percent-encoding, then 401 like its plain spelling', async () => {
    expect((await fixture.gateway.app.inject({ url: '/%61pi/v1/secrets' })).statusCode).toBe(401);
  });
});
