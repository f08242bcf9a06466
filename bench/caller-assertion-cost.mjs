// What the trust boundary costs per proxied request: the CPU of signing a caller assertion (the gateway's own signer,
// from its build) and of verifying it (the services' own verifier), and the same with jose's WebCrypto path that they
// used before; P-256 beside Ed25519 for the record (its raw signature is cheaper, fast-jwt's path for it
// is not). `node bench/caller-assertion-cost.mjs`; run it on a quiet machine: it measures process CPU (a WebCrypto
// thread-pool job's time included), the median of five rounds.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { callerAssertionClaims, callerAssertionVerifier } from '@app/service-kit';
import { assertionSigner } from '../services/gateway/dist/proxy/caller-assertion.js';

const CALLS = 2000;
const ROUNDS = 5;
const KINDS = [
  { name: 'Ed25519 (ours)', algorithm: 'EdDSA', pair: () => generateKeyPairSync('ed25519') },
  { name: 'P-256', algorithm: 'ES256', pair: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }) },
];
const SIGNER_OPTIONS = { iss: 'gateway', aud: 'services', kid: 'bench', expiresIn: 60_000 };
const VERIFIER_OPTIONS = { allowedIss: 'gateway', allowedAud: 'services', requiredClaims: ['iat', 'exp'] };
const pem = (key) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();
/** A proxied request as the signer sees it: its id and the verified key's identity. */
const request = () => ({
  id: randomUUID(),
  apiKey: { organizationId: randomUUID(), timezone: 'Europe/Berlin', apiKeyId: randomUUID() },
});
const claimsOf = ({ id, apiKey }) => callerAssertionClaims({ requestId: id, ...apiKey });
const signerOf = (sign) => (request) => sign(claimsOf(request));

/** CPU microseconds per call of `call` (awaited one after the other), the median of the rounds. */
async function cpuPerCall(call) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const before = process.cpuUsage();
    for (let n = 0; n < CALLS; n += 1) await call();
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / CALLS);
  }
  return +rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)].toFixed(1);
}

const rows = [];
for (const kind of KINDS) {
  const { privateKey, publicKey } = kind.pair();
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'bench' };
  // Ed25519: the gateway's own signer and the services' own verifier. P-256: fast-jwt with the same options.
  const [sign, verify] =
    kind.algorithm === 'EdDSA'
      ? [
          assertionSigner({ CALLER_ASSERTION_PRIVATE_KEY: privateKey, CALLER_ASSERTION_KEY_ID: 'bench' }),
          callerAssertionVerifier({ keys: [jwk] }),
        ]
      : [
          signerOf(createSigner({ ...SIGNER_OPTIONS, key: pem(privateKey), algorithm: kind.algorithm })),
          createVerifier({ ...VERIFIER_OPTIONS, key: pem(publicKey), algorithms: [kind.algorithm] }),
        ];
  const joseSign = (request) =>
    new SignJWT(claimsOf(request))
      .setProtectedHeader({ alg: kind.algorithm, kid: 'bench', typ: 'JWT' })
      .setIssuer('gateway')
      .setAudience('services')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(privateKey);
  const keySet = createLocalJWKSet({ keys: [jwk] });
  const token = sign(request());
  const verifyOptions = { algorithms: [kind.algorithm], issuer: 'gateway', audience: 'services', requiredClaims: ['iat', 'exp'] };
  rows.push({
    key: kind.name,
    fast_jwt_sign_us: await cpuPerCall(() => sign(request())),
    fast_jwt_verify_us: await cpuPerCall(() => verify(token)),
    jose_sign_us: await cpuPerCall(() => joseSign(request())),
    jose_verify_us: await cpuPerCall(() => jwtVerify(token, keySet, verifyOptions)),
  });
}
console.table(rows);
