import { z } from 'zod';
import { mediaFileSchema, mediaRefSchema, productSchema, productStatusSchema } from './catalog-http.js';
import { categorySchema } from './categories-http.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';
import { reservationSchema } from './inventory-http.js';
import { variantSchema } from './variants-http.js';

/**
 * Version 1 of the product events' record: before categories (`category_ids`), options, variants and `available`.
 * Written out, not derived from productSchema: version 1 stays as it was whatever the record gains.
 */
const productRecordV1 = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  status: productStatusSchema,
  stock: z.number().int().nullable(),
  featured_image_id: z.uuid().nullable(),
  featured_image: mediaRefSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A product's state after the change (prices in dollars, as in the API), with its record as `record` shows it. */
const productData = <Record extends z.ZodType>(record: Record) =>
  z.object({
    id: z.uuid(),
    slug: z.string(),
    status: z.string(),
    name: z.string().optional(),
    price: z.number().optional(),
    stock: z.number().int().nullable().optional(),
    featured_image_id: z.uuid().nullable().optional(),
    record: publicRecord(record),
  });
const productUpdatedData = <Record extends z.ZodType>(record: Record) =>
  productData(record).extend({ previous_attributes: previousAttributesSchema });

/**
 * A version 1 event's data as version 2: its record had no categories, options or variants, and (no reservation
 * existed then) all its stock was available.
 */
const upgradeProductV1 = <Data extends { record?: z.output<typeof productRecordV1> | undefined }>(data: Data) => ({
  ...data,
  record: data.record && { ...data.record, category_ids: [], options: [], variants: [], available: data.record.stock },
});

/** Version 2: the record shows `category_ids`, `options`, `variants` and `available`. */
export const productCreatedEvent = defineEvent('catalog.product.created', productData(productSchema), {
  version: 2,
  previous: { data: productData(productRecordV1), upgrade: upgradeProductV1 },
});
/** Also sent when the product's image gallery changes (attach, reorder, feature, detach) and when it loses a deleted category. */
export const productUpdatedEvent = defineEvent('catalog.product.updated', productUpdatedData(productSchema), {
  version: 2,
  previous: { data: productUpdatedData(productRecordV1), upgrade: upgradeProductV1 },
});
export const productDeletedEvent = defineEvent('catalog.product.deleted', z.object({ id: z.uuid() }));
export const mediaCreatedEvent = defineEvent(
  'catalog.media.created',
  z.object({
    id: z.uuid(),
    mime_type: z.string(),
    size: z.number().int(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    url: z.string().optional(),
    record: publicRecord(mediaFileSchema),
  }),
);
export const mediaDeletedEvent = defineEvent('catalog.media.deleted', z.object({ id: z.uuid() }));

/** A category's state after the change. */
const category = z.object({
  id: z.uuid(),
  slug: z.string(),
  parent_id: z.uuid().nullable(),
  record: publicRecord(categorySchema),
});
export const categoryCreatedEvent = defineEvent('catalog.category.created', category);
/** Also sent when the category moves (`parent_id`). */
export const categoryUpdatedEvent = defineEvent(
  'catalog.category.updated',
  category.extend({ previous_attributes: previousAttributesSchema }),
);
export const categoryDeletedEvent = defineEvent('catalog.category.deleted', z.object({ id: z.uuid() }));

/** A variant's state after the change (price in dollars, as in the API). */
const variant = z.object({
  id: z.uuid(),
  product_id: z.uuid(),
  sku: z.string(),
  record: publicRecord(variantSchema),
});
export const variantCreatedEvent = defineEvent('catalog.variant.created', variant);
export const variantUpdatedEvent = defineEvent(
  'catalog.variant.updated',
  variant.extend({ previous_attributes: previousAttributesSchema }),
);
export const variantDeletedEvent = defineEvent('catalog.variant.deleted', z.object({ id: z.uuid(), product_id: z.uuid() }));
/** A checkout took the reserved stock for good. */
export const inventoryReservationCommittedEvent = defineEvent(
  'catalog.inventory_reservation.committed',
  z.object({ id: z.uuid(), record: publicRecord(reservationSchema) }),
);

export const CATALOG_EVENTS = [
  productCreatedEvent,
  productUpdatedEvent,
  productDeletedEvent,
  mediaCreatedEvent,
  mediaDeletedEvent,
  categoryCreatedEvent,
  categoryUpdatedEvent,
  categoryDeletedEvent,
  variantCreatedEvent,
  variantUpdatedEvent,
  variantDeletedEvent,
  inventoryReservationCommittedEvent,
] as const;
export const CATALOG_STREAM = defineStream('CATALOG', CATALOG_EVENTS);
