import { generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import { loadConfig } from '@app/service-kit';
import { callerAssertion } from '@app/service-testing';
import { configSchema } from '../src/config.js';
import type { Echo } from './support/echo-upstreams.js';
import { createOrganization, gatewayBehindEchoes } from './support/harness.js';

/** What a service would accept: the run's public keys, the gateway as issuer, the services as audience. */
async function verified(token: Echo['headers'][string]) {
  const keys = createLocalJWKSet(JSON.parse(inject('callerAssertionPublicKeys')) as JSONWebKeySet);
  if (typeof token !== 'string') throw new Error('no caller assertion was forwarded');
  const { payload, protectedHeader } = await jwtVerify(token, keys, { issuer: 'gateway', audience: 'services', algorithms: ['EdDSA'] });
  return { payload, protectedHeader };
}

describe('caller assertions signed by the gateway', () => {
  const fixture = gatewayBehindEchoes();

  it('when a keyed request is proxied, then it carries an EdDSA assertion of the key’s organization, zone, key and request', async () => {
    const org = await createOrganization(fixture.gateway, 'Signed Co', 'Europe/Berlin');
    const response = await fixture.gateway.app.inject({
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${org.api_key}`, 'x-request-id': 'req-signed-1' },
    });
    const token = (response.json() as Echo).headers[CALLER_ASSERTION_HEADER];
    const { payload, protectedHeader } = await verified(token);

    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: inject('callerAssertionKeyId') });
    expect(payload).toMatchObject({ organization_id: org.id, timezone: 'Europe/Berlin', request_id: 'req-signed-1' });
    expect(payload.api_key_id).toEqual(expect.any(String));
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
  });

  it('when a public route is called without a key, then its assertion names no organization', async () => {
    const response = await fixture.gateway.app.inject({ url: '/api/bookings/slots?scheduleId=x' });
    const { payload } = await verified((response.json() as Echo).headers[CALLER_ASSERTION_HEADER]);

    expect(payload.request_id).toEqual(expect.any(String));
    expect(payload).not.toHaveProperty('organization_id');
    expect(payload).not.toHaveProperty('api_key_id');
  });

  it('when a client sends an x-caller-assertion of its own, then it is replaced by the gateway’s', async () => {
    const forged = callerAssertion({ organizationId: '11111111-1111-4111-8111-111111111111' });
    const response = await fixture.gateway.app.inject({
      url: '/api/bookings/slots?scheduleId=x',
      headers: { [CALLER_ASSERTION_HEADER]: forged },
    });
    const token = (response.json() as Echo).headers[CALLER_ASSERTION_HEADER];

    expect(token).not.toBe(forged);
    expect((await verified(token)).payload).not.toHaveProperty('organization_id');
    expect(decodeProtectedHeader(String(token)).kid).toBe(inject('callerAssertionKeyId'));
  });
});

describe('gateway configuration of the caller assertion key', () => {
  const pem = (type: 'ed25519' | 'rsa') =>
    (type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519')).privateKey
      .export({ format: 'pem', type: 'pkcs8' })
      .toString();

  it('when the key is an Ed25519 PEM or JWK with a kid, then it is read', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    for (const key of [pem('ed25519'), JSON.stringify(privateKey.export({ format: 'jwk' }))]) {
      const config = loadConfig(configSchema, { NODE_ENV: 'test', CALLER_ASSERTION_PRIVATE_KEY: key, CALLER_ASSERTION_KEY_ID: 'k1' });
      expect(config.CALLER_ASSERTION_PRIVATE_KEY?.asymmetricKeyType).toBe('ed25519');
    }
  });

  it.each([
    ['an RSA key', () => ({ CALLER_ASSERTION_PRIVATE_KEY: pem('rsa'), CALLER_ASSERTION_KEY_ID: 'k1' }), /CALLER_ASSERTION_PRIVATE_KEY/],
    ['not a key', () => ({ CALLER_ASSERTION_PRIVATE_KEY: 'REPLACE_ME', CALLER_ASSERTION_KEY_ID: 'k1' }), /CALLER_ASSERTION_PRIVATE_KEY/],
    ['a key without a kid', () => ({ CALLER_ASSERTION_PRIVATE_KEY: pem('ed25519') }), /CALLER_ASSERTION_KEY_ID/],
    ['a kid without a key', () => ({ CALLER_ASSERTION_KEY_ID: 'k1' }), /CALLER_ASSERTION_PRIVATE_KEY/],
    [
      'a kid with spaces',
      () => ({ CALLER_ASSERTION_PRIVATE_KEY: pem('ed25519'), CALLER_ASSERTION_KEY_ID: 'a b' }),
      /CALLER_ASSERTION_KEY_ID/,
    ],
  ])('when it is %s, then the config is refused naming the variable', (_case, env, name) => {
    expect(() => loadConfig(configSchema, { NODE_ENV: 'test', ...env() })).toThrow(name);
  });
});
