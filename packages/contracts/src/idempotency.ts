import { z } from 'zod';

/** `Idempotency-Key` of every creating POST (other headers pass through untouched). */
export const idempotencyHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(255, { message: 'must be at most 255 characters' })
    .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' })
    .optional()
    .meta({
      description:
        'Makes a retry safe: the same key with the same body within 24 h returns the first response (with `idempotent-replayed: true`) and creates nothing; another body is a 409 `IDEMPOTENCY_KEY_REUSED`.',
    }),
});
