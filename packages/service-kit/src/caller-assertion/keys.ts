import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

const BASE64URL_ED25519 = /^[A-Za-z0-9_-]{43}$/;

/** A key id as it travels in the JWS header (`kid`): short, printable, no separators a log would mangle. */
export const callerAssertionKeyIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ., _ and - only (at most 64)');

/** One public key of the set: an Ed25519 OKP JWK with a kid, and nothing private (`d`) in it. */
const publicJwkSchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().regex(BASE64URL_ED25519, 'is not a base64url Ed25519 public key'),
    kid: callerAssertionKeyIdSchema,
    alg: z.literal('EdDSA').optional(),
    use: z.literal('sig').optional(),
    d: z.never({ error: 'a private key has no place in the public key set' }).optional(),
  })
  .transform(({ d: _private, ...key }) => key);

/**
 * `CALLER_ASSERTION_PUBLIC_KEYS`: a JWKS (JSON) of the gateway's Ed25519 public keys. Several keys (kids) may be
 * valid at once, so the gateway's key can be rotated without refusing the requests signed with the old one.
 */
export const callerAssertionPublicKeysSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not JSON (a JWKS: {"keys":[{"kty":"OKP","crv":"Ed25519","x":"…","kid":"…"}]})' });
      return z.NEVER;
    }
  })
  .pipe(
    z.object({ keys: z.array(publicJwkSchema).min(1) }).refine(({ keys }) => new Set(keys.map((key) => key.kid)).size === keys.length, {
      message: 'has a kid twice',
    }),
  );

/** The gateway's public keys as the services hold them (the parsed `CALLER_ASSERTION_PUBLIC_KEYS`). */
export type CallerAssertionPublicKeys = z.output<typeof callerAssertionPublicKeysSchema>;

/** `CALLER_ASSERTION_PRIVATE_KEY` of the gateway: an Ed25519 private key as a PKCS#8 PEM or as a JWK (JSON). */
export const callerAssertionPrivateKeySchema = z.string().transform((text, ctx): KeyObject => {
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' })
      : createPrivateKey(trimmed);
    if (key.asymmetricKeyType === 'ed25519') return key;
    ctx.addIssue({ code: 'custom', message: `is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key, not Ed25519` });
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not an Ed25519 private key (PKCS#8 PEM or JWK)' });
  }
  return z.NEVER;
});
