import { z } from 'zod';
import { mediaFileSchema, mediaRefSchema, productSchema, productStatusSchema } from './catalog-http.js';
import { categorySchema } from './categories-http.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';

/**
 * Version 1 of the product events' record: before categories (`category_ids`). Written out, not derived from
 * productSchema: version 1 stays as it was whatever the record gains. It reads as version 2 with no categories.
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

/** A product's state after the change (prices in dollars, as in the API). */
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

/** A version 1 event's data as version 2: its record had no categories. */
const withCategories = <Data extends { record?: z.output<typeof productRecordV1> | undefined }>(data: Data) => ({
  ...data,
  record: data.record && { ...data.record, category_ids: [] },
});

/** Version 2: the record shows `category_ids`. */
export const productCreatedEvent = defineEvent('catalog.product.created', productData(productSchema), {
  version: 2,
  previous: { data: productData(productRecordV1), upgrade: withCategories },
});
/** Also sent when the product's image gallery changes (attach, reorder, feature, detach) and when it loses a deleted category. */
export const productUpdatedEvent = defineEvent('catalog.product.updated', productUpdatedData(productSchema), {
  version: 2,
  previous: { data: productUpdatedData(productRecordV1), upgrade: withCategories },
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

export const CATALOG_EVENTS = [
  productCreatedEvent,
  productUpdatedEvent,
  productDeletedEvent,
  mediaCreatedEvent,
  mediaDeletedEvent,
  categoryCreatedEvent,
  categoryUpdatedEvent,
  categoryDeletedEvent,
] as const;
export const CATALOG_STREAM = defineStream('CATALOG', CATALOG_EVENTS);
