import { z } from 'zod';
import { nameString } from './safe-text.js';
import { strictFields } from './strict.js';
import { TEXT_LIMITS } from './text-limits.js';

/** HTTP bodies and records of inventory reservations (API.md, "Variants, inventory and categories"). */

export const RESERVATION_STATUSES = ['active', 'committed', 'released', 'expired'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export const MAX_RESERVATION_ITEMS = 50;
export const DEFAULT_RESERVATION_TTL_SECONDS = 900;

/** Checked by the use case: a malformed id is a 404 like an unknown one. */
const recordId = nameString(TEXT_LIMITS.id);
const quantity = z
  .number({ message: 'must be an integer' })
  .int({ message: 'must be an integer' })
  .min(1, { message: 'must be at least 1' })
  .max(1_000_000, { message: 'must be at most 1000000' });

/** One item: a variant, or a product without variants (exactly one of the two), and how many. */
export const reservationItemSchema = z
  .strictObject({ variant_id: recordId.optional(), product_id: recordId.optional(), quantity }, strictFields)
  .superRefine((item, ctx) => {
    if ((item.variant_id === undefined) === (item.product_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['variant_id'], message: 'give exactly one of variant_id and product_id' });
    }
  });
export type ReservationItem = z.infer<typeof reservationItemSchema>;

/** POST /api/v1/inventory/reservations */
export const createReservationBodySchema = z
  .strictObject(
    {
      items: z
        .array(reservationItemSchema, { message: 'must be an array of items' })
        .min(1, { message: 'must list at least 1 item' })
        .max(MAX_RESERVATION_ITEMS, { message: `must list at most ${MAX_RESERVATION_ITEMS} items` }),
      ttl_seconds: z
        .number({ message: 'must be an integer' })
        .int({ message: 'must be an integer' })
        .min(60, { message: 'must be at least 60' })
        .max(86_400, { message: 'must be at most 86400' })
        .default(DEFAULT_RESERVATION_TTL_SECONDS),
    },
    strictFields,
  )
  .meta({
    id: 'CreateInventoryReservationBody',
    example: { items: [{ variant_id: '0b7f2c1e-5d1a-4d8e-9a55-3f6f7c2b9e10', quantity: 2 }], ttl_seconds: 900 },
  });
export type CreateReservationBody = z.infer<typeof createReservationBodySchema>;

/** An item as the client sent it: `{variant_id, quantity}` or `{product_id, quantity}`. */
export const reservedItemSchema = z.union([
  z.object({ variant_id: z.uuid(), quantity: z.number().int() }),
  z.object({ product_id: z.uuid(), quantity: z.number().int() }),
]);
export type ReservedItem = z.infer<typeof reservedItemSchema>;

export const reservationSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(RESERVATION_STATUSES).describe('`expired` as soon as `expires_at` has passed, with no sweep delay'),
    items: z.array(reservedItemSchema),
    expires_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'InventoryReservation' });
export type ReservationRecord = z.infer<typeof reservationSchema>;
