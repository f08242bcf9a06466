// What the trust boundary costs per proxied request: the CPU of signing a caller assertion (the gateway) and of
// verifying it (the service), with fast-jwt as the gateway and the services call it, and with jose's WebCrypto path
// that they used before; P-256 beside Ed25519 for the record (its raw signature is cheaper, fast-jwt's path for it
// is not). `node bench/caller-assertion-cost.mjs`; run it on a quiet machine: it measures process CPU (a WebCrypto
// thread-pool job's time included), the median of five rounds.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';

const CALLS = 2000;
const ROUNDS = 5;
const KINDS = [
  { name: 'Ed25519 (ours)', algorithm: 'EdDSA', pair: () => generateKeyPairSync('ed25519') },
  { name: 'P-256', algorithm: 'ES256', pair: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }) },
];
const claims = () => ({ organization_id: randomUUID(), timezone: 'Europe/Berlin', api_key_id: randomUUID(), request_id: randomUUID() });

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
  const options = { iss: 'gateway', aud: 'services', kid: 'bench', algorithm: kind.algorithm };
  const fastSign = createSigner({ key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), expiresIn: 60_000, ...options });
  const fastVerify = createVerifier({
    key: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    algorithms: [kind.algorithm],
    allowedIss: 'gateway',
    allowedAud: 'services',
    requiredClaims: ['iat', 'exp'],
  });
  const joseSign = () =>
    new SignJWT(claims())
      .setProtectedHeader({ alg: kind.algorithm, kid: 'bench', typ: 'JWT' })
      .setIssuer('gateway')
      .setAudience('services')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(privateKey);
  const keySet = createLocalJWKSet({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'bench' }] });
  const token = fastSign(claims());
  const verifyOptions = { algorithms: [kind.algorithm], issuer: 'gateway', audience: 'services', requiredClaims: ['iat', 'exp'] };
  rows.push({
    key: kind.name,
    fast_jwt_sign_us: await cpuPerCall(() => fastSign(claims())),
    fast_jwt_verify_us: await cpuPerCall(() => fastVerify(token)),
    jose_sign_us: await cpuPerCall(joseSign),
    jose_verify_us: await cpuPerCall(() => jwtVerify(token, keySet, verifyOptions)),
  });
}
console.table(rows);
