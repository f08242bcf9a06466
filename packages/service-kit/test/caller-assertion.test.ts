import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import {
  baseConfigSchema,
  buildService,
  callerAssertionSecretsSchema,
  callerAssertionSigner,
  callerAssertionVerifier,
  ConfigError,
  loadConfig,
  optionalCallerOf,
  type ServiceApp,
} from '../src/index.js';
import { useCallerAssertionKeys } from '../src/http/caller-assertion.js';
import { anonymousHeaders, callerAssertion, keyKindHeaders, organizationHeaders, testAssertionSecret } from '@app/service-testing';
import { silentLog, useRunCallerKeys } from './support/kit-env.js';

const UNAUTHORIZED = { error: 'Missing or invalid API key', code: 'UNAUTHORIZED' };
const assertion = (value: string) => ({ [CALLER_ASSERTION_HEADER]: value });

describe('caller assertions on a service', () => {
  let app: ServiceApp;
  const organization = randomUUID();

  beforeAll(async () => {
    app = await buildService({ name: 'kit-assert', log: silentLog, readiness: [{ name: 'database', check: async () => undefined }] });
    useRunCallerKeys(app);
    app.get('/public', async (request) => ({ caller: optionalCallerOf(request) }));
    // Two operations of the key table: one of the publishable keys' public ones, and one that needs bookings:read.
    app.get('/kit-public', { schema: { operationId: 'getSchedule' } }, async () => ({ ok: true }));
    app.get('/kit-bookings', { schema: { operationId: 'listBookings' } }, async () => ({ ok: true }));
    app.post('/kit-bookings', { schema: { operationId: 'createBooking' } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  describe('the kind of the key (the same table as the gateway: a request that reached the service some other way)', () => {
    const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) => app.inject({ method, url, headers });
    const forbidden = (error: string) => ({ error, code: 'FORBIDDEN' });

    it('when a publishable key calls a public operation, then it runs; any other, 403 FORBIDDEN', async () => {
      const publishable = keyKindHeaders(organization, 'publishable');
      expect((await call('GET', '/kit-public', publishable)).statusCode).toBe(200);
      const refused = await call('GET', '/kit-bookings', publishable);
      expect([refused.statusCode, refused.json()]).toEqual([403, forbidden('Publishable keys cannot call this operation')]);
      // The ping is no public operation.
      expect((await ping(publishable)).statusCode).toBe(403);
    });

    it('when a restricted key calls, then its scopes decide (write includes read), and a secret key may call all', async () => {
      expect((await call('GET', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:read']))).statusCode).toBe(200);
      expect((await call('POST', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:write']))).statusCode).toBe(200);
      const readOnly = await call('POST', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:read']));
      expect([readOnly.statusCode, readOnly.json()]).toEqual([403, forbidden('This key lacks the bookings:write scope')]);
      const other = await call('GET', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['products:write']));
      expect(other.json()).toEqual(forbidden('This key lacks the bookings:read scope'));
      expect((await call('POST', '/kit-bookings', keyKindHeaders(organization, 'secret'))).statusCode).toBe(200);
    });

    it('when scopes come with a key that is not restricted, then the assertion is refused as malformed', async () => {
      const headers = assertion(callerAssertion({ organizationId: organization, keyType: 'publishable', scopes: ['bookings:read'] }));
      expect((await call('GET', '/kit-public', headers)).statusCode).toBe(401);
    });
  });

  const ping = (headers: Record<string, string>) => app.inject({ url: '/api/v1/ping/kit-assert', headers });

  it('when the assertion is valid, then the request runs as its organization', async () => {
    const response = await ping(organizationHeaders(organization, 'Europe/Berlin'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { service: 'kit-assert', organization_id: organization } });
  });

  it('when only x-organization-id is sent (no assertion), then 401 in the API error shape', async () => {
    const response = await ping({ 'x-organization-id': organization, 'x-organization-timezone': 'UTC' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('when a valid assertion comes with an x-organization-id of another organization, then the assertion wins', async () => {
    const response = await ping({ ...organizationHeaders(organization), 'x-organization-id': randomUUID() });
    expect(response.json().data.organization_id).toBe(organization);
  });

  it.each([
    ['missing', () => ({})],
    ['empty', () => assertion('')],
    ['not a JWS', () => assertion('not.a.jws')],
    ['expired', () => assertion(callerAssertion({ organizationId: organization }, { expiresInSeconds: -60 }))],
    [
      'tampered (another organization in its claims)',
      () => assertion(callerAssertion({ organizationId: organization }, { tamperedOrganizationId: randomUUID() })),
    ],
    ['minted under an unknown kid', () => assertion(callerAssertion({ organizationId: organization }, { keyId: 'retired-key' }))],
    [
      'minted with a foreign secret under the known kid',
      () => assertion(callerAssertion({ organizationId: organization }, { foreignKey: true })),
    ],
    [
      'minted for another service, with that service’s secret (replayed here)',
      () => assertion(callerAssertion({ organizationId: organization }, { audience: 'bookings' })),
    ],
    [
      'minted with another service’s secret naming this service (a stolen key of bookings)',
      () => assertion(callerAssertion({ organizationId: organization }, { secret: testAssertionSecret('bookings') })),
    ],
    ['issued by someone else', () => assertion(callerAssertion({ organizationId: organization }, { issuer: 'not-the-gateway' }))],
  ])('when the assertion is %s, then 401 UNAUTHORIZED', async (_case, headers) => {
    const response = await ping(headers());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('when a public route gets an anonymous assertion, then it runs without a caller; a keyed route refuses it', async () => {
    const open = await app.inject({ url: '/public', headers: anonymousHeaders() });
    expect([open.statusCode, open.json()]).toEqual([200, { caller: null }]);
    const keyed = await ping(anonymousHeaders());
    expect(keyed.statusCode).toBe(401);
  });

  it('when a public route gets a keyed assertion, then the caller is its organization', async () => {
    const response = await app.inject({ url: '/public', headers: organizationHeaders(organization, 'Asia/Tokyo') });
    expect(response.json().caller).toMatchObject({ organizationId: organization, timezone: 'Asia/Tokyo' });
  });

  it('when a public route gets no assertion, then 401 (the gateway mints one even for anonymous calls)', async () => {
    expect((await app.inject({ url: '/public' })).statusCode).toBe(401);
  });

  it('when probed without an assertion, then /healthz, /readyz, /metrics and /openapi.json answer', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
  });
});

describe('caller assertions under two kids (a rotation)', () => {
  const audience = inject('callerAssertionAudience');
  const next = randomBytes(32).toString('base64url');
  let app: ServiceApp;

  beforeAll(async () => {
    app = await buildService({ name: 'kit-rotate', log: silentLog });
    const secrets = { next, [inject('callerAssertionKeyId')]: testAssertionSecret(audience) };
    useCallerAssertionKeys(app, callerAssertionSecretsSchema.parse(JSON.stringify(secrets)), audience);
    await app.ready();
  });
  afterAll(() => app.close());

  /** Minted with the next secret (as a gateway given it would mint), under `kid`, by the kit's own signer. */
  const mintedByNext = (kid: string, organizationId: string) =>
    callerAssertionSigner({ kid, secret: Buffer.from(next, 'base64url') }, audience)({ organization_id: organizationId });
  const ping = (headers: Record<string, string>) => app.inject({ url: '/api/v1/ping/kit-rotate', headers });

  it('when assertions come minted by either key under its own kid, then both run as their organization', async () => {
    const [byRun, byNext] = [randomUUID(), randomUUID()];
    const responses = [await ping(organizationHeaders(byRun)), await ping(assertion(mintedByNext('next', byNext)))];
    expect(responses.map((response) => [response.statusCode, response.json().data?.organization_id])).toEqual([
      [200, byRun],
      [200, byNext],
    ]);
  });

  it('when an assertion minted by one key names the other key’s kid, then 401 (the kid picks the key)', async () => {
    const response = await ping(assertion(mintedByNext(inject('callerAssertionKeyId'), randomUUID())));
    expect([response.statusCode, response.json()]).toEqual([401, UNAUTHORIZED]);
  });
});

describe('the cache of verified assertions', () => {
  const key = { kid: 'k1', secret: randomBytes(32) };
  const mint = (organizationId: string, ttlSeconds = 60) =>
    callerAssertionSigner(key, 'bookings', ttlSeconds)({ organization_id: organizationId });

  it('when more distinct assertions are verified than it holds, then it stays at its bound and each still verifies', () => {
    const verifier = callerAssertionVerifier([key], 'bookings', { max: 3 });
    const tokens = Array.from({ length: 10 }, () => mint(randomUUID()));
    for (const token of [...tokens, ...tokens]) expect(verifier.verify(token)).toHaveProperty('organizationId');
    expect(verifier.cached).toBe(3);
  });

  it('when a refused assertion comes, then it is not cached (only what the secret minted takes a place)', () => {
    const verifier = callerAssertionVerifier([key], 'bookings');
    const forged = callerAssertionSigner({ kid: 'k1', secret: randomBytes(32) }, 'bookings')({ organization_id: randomUUID() });
    expect(verifier.verify(forged)).toEqual({ refused: 'FAST_JWT_INVALID_SIGNATURE' });
    expect(verifier.verify(mint(randomUUID()))).toHaveProperty('organizationId');
    expect(verifier.cached).toBe(1);
  });

  it('when a cached assertion expires, then it is refused (the cache honours exp)', async () => {
    const verifier = callerAssertionVerifier([key], 'bookings', { clockToleranceMs: 0 });
    const token = mint(randomUUID(), 1);
    expect(verifier.verify(token)).toHaveProperty('organizationId');
    expect(verifier.verify(token)).toHaveProperty('organizationId'); // from the cache
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(verifier.verify(token)).toEqual({ refused: 'FAST_JWT_EXPIRED' });
  });

  it('when an assertion for bookings reaches catalog’s verifier, then it is refused though the cache holds it for bookings', () => {
    const bookings = callerAssertionVerifier([key], 'bookings');
    const catalog = callerAssertionVerifier([key], 'catalog'); // even under one secret (never so in production)
    const token = mint(randomUUID());
    expect(bookings.verify(token)).toHaveProperty('organizationId');
    expect(catalog.verify(token)).toEqual({ refused: 'FAST_JWT_INVALID_CLAIM_VALUE' });
  });
});

describe('caller assertion secrets', () => {
  const secret = () => randomBytes(32).toString('base64url');

  it('when a service app has no secrets, then it cannot start (naming CALLER_ASSERTION_SECRETS)', async () => {
    const app = await buildService({ name: 'kit-assert', log: silentLog });
    expect(() => useCallerAssertionKeys(app, undefined, 'kit-assert')).toThrow(ConfigError);
    expect(() => useCallerAssertionKeys(app, undefined, 'kit-assert')).toThrow(/CALLER_ASSERTION_SECRETS/);
    await app.close();
  });

  it('when two kids are configured (a rotation), then both are read', () => {
    const config = loadConfig(baseConfigSchema, {
      NODE_ENV: 'test',
      PORT: '1',
      CALLER_ASSERTION_SECRETS: JSON.stringify({ old: secret(), new: secret() }),
    });
    expect(config.CALLER_ASSERTION_SECRETS?.map((key) => [key.kid, key.secret.length])).toEqual([
      ['old', 32],
      ['new', 32],
    ]);
  });

  it.each([
    ['not JSON', 'REPLACE_ME'],
    ['an empty set', '{}'],
    ['a short secret', () => JSON.stringify({ a: randomBytes(16).toString('base64url') })],
    ['a secret that is not base64url', () => JSON.stringify({ a: `${'x'.repeat(42)}+` })],
    ['a kid with spaces', () => JSON.stringify({ 'a b': secret() })],
    ['a list instead of a map', () => JSON.stringify([secret()])],
  ])('when CALLER_ASSERTION_SECRETS is %s, then the config is refused naming it', (_case, value) => {
    const env = { NODE_ENV: 'test', PORT: '1', CALLER_ASSERTION_SECRETS: typeof value === 'string' ? value : value() };
    expect(() => loadConfig(baseConfigSchema, env)).toThrow(/CALLER_ASSERTION_SECRETS/);
  });
});
