import { z } from 'zod';
import { mediaFileSchema, productSchema } from './catalog-http.js';
import { categorySchema } from './categories-http.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';

/** A product's state after the change (prices in dollars, as in the API). */
const product = z.object({
  id: z.uuid(),
  slug: z.string(),
  status: z.string(),
  name: z.string().optional(),
  price: z.number().optional(),
  stock: z.number().int().nullable().optional(),
  featured_image_id: z.uuid().nullable().optional(),
  record: publicRecord(productSchema),
});
export const productCreatedEvent = defineEvent('catalog.product.created', product);
/** Also sent when the product's image gallery changes (attach, reorder, feature, detach). */
export const productUpdatedEvent = defineEvent(
  'catalog.product.updated',
  product.extend({ previous_attributes: previousAttributesSchema }),
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
