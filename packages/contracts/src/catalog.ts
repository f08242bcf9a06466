import { z } from 'zod';
import { mediaFileSchema, productSchema } from './catalog-http.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';
import { reservationSchema } from './inventory-http.js';
import { variantSchema } from './variants-http.js';

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

/** The product's record before options, variants and `available` (schema_version 1). */
const productRecordV1 = productSchema.omit({ options: true, variants: true, available: true });

/** Version 1 as version 2 reads it: no options, no variants, and (no reservation existed then) all its stock available. */
function upgradeProductV1<Data extends { record?: z.output<typeof productRecordV1> | undefined }>(data: Data) {
  const { record } = data;
  return { ...data, record: record && { ...record, options: [], variants: [], available: record.stock } };
}

/** Version 2: the record shows `options`, `variants` and `available`. */
export const productCreatedEvent = defineEvent('catalog.product.created', productData(productSchema), {
  version: 2,
  previous: { data: productData(productRecordV1), upgrade: upgradeProductV1 },
});
/** Also sent when the product's image gallery changes (attach, reorder, feature, detach). Version 2 as product.created. */
export const productUpdatedEvent = defineEvent(
  'catalog.product.updated',
  productData(productSchema).extend({ previous_attributes: previousAttributesSchema }),
  {
    version: 2,
    previous: { data: productData(productRecordV1).extend({ previous_attributes: previousAttributesSchema }), upgrade: upgradeProductV1 },
  },
);
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
  variantCreatedEvent,
  variantUpdatedEvent,
  variantDeletedEvent,
  inventoryReservationCommittedEvent,
] as const;
export const CATALOG_STREAM = defineStream('CATALOG', CATALOG_EVENTS);
