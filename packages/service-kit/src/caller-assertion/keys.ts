import { z } from 'zod';

/** At least 256 random bits, base64url (what `randomBytes(32).toString('base64url')` prints): HS256's full strength. */
const SECRET = /^[A-Za-z0-9_-]{43,512}$/;

/** A key id as it travels in the JWS header (`kid`): short, printable, no separators a log would mangle. */
const callerAssertionKeyIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ., _ and - only (at most 64)');

const secretSchema = z.string().regex(SECRET, 'is not a base64url secret of at least 32 bytes (43 characters)');

/** One HMAC key: its id and its secret bytes. */
export interface CallerAssertionKey {
  kid: string;
  secret: Buffer;
}

const jsonOf = (example: string) =>
  z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not JSON (${example})` });
      return z.NEVER;
    }
  });

/**
 * A service's `CALLER_ASSERTION_SECRETS`: its own HMAC secrets by kid, `{"<kid>":"<secret>"}`. Several kids may be
 * valid at once, so the gateway's key for this service can be rotated without refusing what the old one minted.
 */
export const callerAssertionSecretsSchema = jsonOf('{"<kid>":"<base64url secret>"}')
  .pipe(z.record(callerAssertionKeyIdSchema, secretSchema).refine((keys) => Object.keys(keys).length > 0, 'has no key'))
  .transform((keys): CallerAssertionKey[] =>
    Object.entries(keys).map(([kid, secret]) => ({ kid, secret: Buffer.from(secret, 'base64url') })),
  );

/** The HMAC keys a service accepts (the parsed `CALLER_ASSERTION_SECRETS`). */
export type CallerAssertionSecrets = z.output<typeof callerAssertionSecretsSchema>;

/**
 * The gateway's `CALLER_ASSERTION_SIGNING_KEYS`: for each service it proxies to, the one key it mints that service's
 * assertions with, `{"<service>":{"kid":"…","secret":"…"}}`. During a rotation it names the new kid once every replica
 * of the service accepts it.
 */
export const callerAssertionSigningKeysSchema = jsonOf('{"<service>":{"kid":"<kid>","secret":"<base64url secret>"}}')
  .pipe(
    z.record(
      z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'is not a service name'),
      z.strictObject({ kid: callerAssertionKeyIdSchema, secret: secretSchema }),
    ),
  )
  .transform((keys): Record<string, CallerAssertionKey> =>
    Object.fromEntries(
      Object.entries(keys).map(([service, { kid, secret }]) => [service, { kid, secret: Buffer.from(secret, 'base64url') }]),
    ),
  );
