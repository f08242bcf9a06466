// What the trust boundary costs per proxied request, in CPU microseconds on each side: the gateway minting the caller
// assertion and the service verifying it, for the schemes considered in issue 51. `node bench/caller-assertion-cost.mjs`
// (after a build); run it on a quiet machine: process CPU per call, the median of five rounds.
//
// - Ed25519 per request: what ran before (fast-jwt EdDSA, a signature per request and a verification per request).
// - HS256 per request, fast-jwt: the same with an HMAC, nothing reused.
// - HS256 per request, node:crypto: a hand-rolled compact JWS (createHmac + timingSafeEqual), nothing reused.
// - HS256 reused + cached (ours): the gateway's own minter (one token per key and service, sent for 40 s) and the
//   services' own verifier (verified tokens cached until they expire): the steady state of a key in use.
import { createHmac, generateKeyPairSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { callerAssertionClaims, callerAssertionSecretsSchema, callerAssertionSigner, callerAssertionVerifier } from '@app/service-kit';
import { assertionMinter } from '../services/gateway/dist/proxy/caller-assertion.js';

const CALLS = 4000;
const ROUNDS = 5;
const SERVICES = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

/** A verified key as the gateway's auth hook leaves it on the request. */
const identity = () => ({
  organizationId: randomUUID(),
  timezone: 'Europe/Berlin',
  apiKeyId: randomUUID(),
  type: 'secret',
  scopes: null,
  allowedOrigins: null,
});
const claimsOf = (apiKey) =>
  callerAssertionClaims({
    organizationId: apiKey.organizationId,
    timezone: apiKey.timezone,
    apiKeyId: apiKey.apiKeyId,
    keyType: apiKey.type,
  });

/** CPU microseconds per call of `call(n)`, the median of the rounds. */
function cpuPerCall(call) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const before = process.cpuUsage();
    for (let n = 0; n < CALLS; n += 1) call(n);
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / CALLS);
  }
  return +rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)].toFixed(2);
}

/** Per-request tokens are all different: each is minted from a fresh request (the old claims held its id) and verified once. */
function perRequest(name, sign, verify) {
  const apiKey = identity();
  const tokens = Array.from({ length: CALLS }, () => sign({ ...claimsOf(apiKey), request_id: randomUUID() }));
  const gateway = cpuPerCall(() => sign({ ...claimsOf(apiKey), request_id: randomUUID() }));
  const service = cpuPerCall((n) => verify(tokens[n]));
  return { scheme: name, gateway_us: gateway, service_us: service, total_us: +(gateway + service).toFixed(2) };
}

const rows = [];

const ed = generateKeyPairSync('ed25519');
const pem = (key) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();
rows.push(
  perRequest(
    'Ed25519 per request (before)',
    createSigner({ key: pem(ed.privateKey), algorithm: 'EdDSA', kid: 'k1', iss: 'gateway', aud: 'services', expiresIn: 60_000 }),
    createVerifier({
      key: pem(ed.publicKey),
      algorithms: ['EdDSA'],
      allowedIss: 'gateway',
      allowedAud: 'services',
      requiredClaims: ['iat', 'exp'],
    }),
  ),
);

const key = { kid: 'k1', secret: randomBytes(32) };
// The kit's own signer and verifier, with a cache of one entry: every token is new, so each verification is a miss.
const uncached = callerAssertionVerifier([key], 'bookings', { max: 1 });
rows.push(perRequest('HS256 per request, fast-jwt (ours, no reuse)', callerAssertionSigner(key, 'bookings'), uncached.verify));

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = b64({ alg: 'HS256', typ: 'JWT', kid: 'k1' });
const handSign = (claims) => {
  const now = Math.floor(Date.now() / 1000);
  const input = `${header}.${b64({ ...claims, iss: 'gateway', aud: 'bookings', iat: now, exp: now + 60 })}`;
  return `${input}.${createHmac('sha256', key.secret).update(input).digest('base64url')}`;
};
const handVerify = (token) => {
  const last = token.lastIndexOf('.');
  const mac = Buffer.from(token.slice(last + 1), 'base64url');
  const expected = createHmac('sha256', key.secret).update(token.slice(0, last)).digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new Error('bad MAC');
  const [rawHeader = '', rawClaims = ''] = token.slice(0, last).split('.');
  const { kid, alg } = JSON.parse(Buffer.from(rawHeader, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(rawClaims, 'base64url').toString());
  if (kid !== 'k1' || alg !== 'HS256' || claims.aud !== 'bookings' || claims.iss !== 'gateway' || claims.exp * 1000 < Date.now())
    throw new Error('refused');
  return claims;
};
rows.push(perRequest('HS256 per request, node:crypto', handSign, handVerify));

// The steady state: the gateway's minter and the services' verifier as they run, 100 keys in turn.
const signingKeys = Object.fromEntries(SERVICES.map((service) => [service, { kid: 'k1', secret: randomBytes(32) }]));
const minter = assertionMinter({ CALLER_ASSERTION_SIGNING_KEYS: signingKeys });
const verifier = callerAssertionVerifier(
  callerAssertionSecretsSchema.parse(JSON.stringify({ k1: signingKeys.bookings.secret.toString('base64url') })),
  'bookings',
);
const requests = Array.from({ length: 100 }, () => ({ apiKey: identity() }));
const sent = requests.map((request) => minter.mint(request, 'bookings'));
for (const token of sent) if ('refused' in verifier.verify(token)) throw new Error('the verifier refused the minter');
const gateway = cpuPerCall((n) => minter.mint(requests[n % 100], 'bookings'));
const service = cpuPerCall((n) => verifier.verify(sent[n % 100]));
rows.push({ scheme: 'HS256 reused + cached (ours)', gateway_us: gateway, service_us: service, total_us: +(gateway + service).toFixed(2) });
// A miss on each side: a key's first request to a service, once per 40 s (gateway) and per token (service).
const missGateway = cpuPerCall(() => minter.mint({ apiKey: identity() }, 'bookings'));
rows.push({
  scheme: "  a miss (a key's first request; gateway side incl. making the identity)",
  gateway_us: missGateway,
  service_us: rows[1].service_us,
  total_us: +(missGateway + rows[1].service_us).toFixed(2),
});

console.table(rows);
