import { z } from 'zod';
import { productCategoryFilterSchema, productCategoryIdsSchema } from './categories-http.js';
import { listQuerySchema, paginationQuerySchema } from './pagination.js';
import { dollarsSchema, queryBooleanSchema, queryNumber } from './scalars.js';
import { strictFields } from './strict.js';
import { EXAMPLE_MEDIA_FILE_ID } from './examples.js';
import { nameString, proseString, slugSchema } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';
import { productOptionsSchema, variantSchema } from './variants-http.js';

/** Image types the catalog accepts, judged by the uploaded bytes. */
export const MEDIA_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export const productStatusSchema = z.enum(PRODUCT_STATUSES, { message: `must be one of ${PRODUCT_STATUSES.join(', ')}` });
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** Record ids in paths are checked by the use case, so a malformed one is a 404 rather than a 400 (single ids: the kit's idParamsSchema). */
export const productImageParamsSchema = z.object({ id: z.string(), imageId: z.string() });
export const mediaContentParamsSchema = z.object({ token: z.string(), name: z.string() });

const name = nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' });
const description = proseString(TEXT_LIMITS.productDescription).nullable();
/** Checked by the use case: a malformed id is the record's 404, not a 400. */
const recordId = nameString(TEXT_LIMITS.id);
const stock = z
  .number({ message: 'must be an integer' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must not be negative' })
  .max(2_147_483_647, { message: 'is too large' })
  .nullable();
const altText = proseString(TEXT_LIMITS.altText).nullable();
const orderIndex = z
  .number({ message: 'must be an integer' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must not be negative' })
  .max(100_000, { message: 'is too large' });

/** POST /api/v1/products */
export const createProductBodySchema = z
  .strictObject(
    {
      name,
      price: dollarsSchema,
      slug: slugSchema.optional(),
      description: description.optional(),
      featured_image_id: recordId.nullable().optional(),
      status: productStatusSchema.default('draft'),
      stock: stock.optional(),
      category_ids: productCategoryIdsSchema.optional(),
      options: productOptionsSchema.default([]),
    },
    strictFields,
  )
  .meta({
    id: 'CreateProductBody',
    example: { name: 'Stoneware mug', price: 24.5, description: 'Hand-thrown, 350 ml.', status: 'published', stock: 40 },
  });
export type CreateProductBody = z.infer<typeof createProductBodySchema>;

/** PATCH /api/v1/products/{id}: every field optional; `null` clears description, stock and featured_image_id. */
export const updateProductBodySchema = z
  .strictObject(
    {
      name: name.optional(),
      price: dollarsSchema.optional(),
      slug: slugSchema.optional(),
      description: description.optional(),
      featured_image_id: recordId.nullable().optional(),
      status: productStatusSchema.optional(),
      stock: stock.optional(),
      category_ids: productCategoryIdsSchema.optional(),
      /** Refused (400 naming `options`) when a variant's values would no longer be listed. */
      options: productOptionsSchema.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateProductBody', example: { price: 22, stock: 35 } });
export type UpdateProductBody = z.infer<typeof updateProductBodySchema>;

const priceFilter = queryNumber(dollarsSchema);

/** GET /api/v1/products */
export const listProductsQuerySchema = listQuerySchema({
  status: productStatusSchema.optional(),
  search: proseString(TEXT_LIMITS.search, 'must be a single string').optional(),
  min_price: priceFilter.optional(),
  max_price: priceFilter.optional(),
  in_stock: queryBooleanSchema.optional(),
  /** The category and its descendants. */
  category_id: productCategoryFilterSchema.optional(),
});
export type ListProductsQuery = z.infer<typeof listProductsQuerySchema>;

/** How a product or image refers to a media file. */
/** The most characters of a media file's `alt_text`. */
export const MAX_ALT_TEXT = TEXT_LIMITS.altText;

/**
 * POST /api/v1/media: the multipart form as the document shows it. The route reads the parts as a stream
 * (the file is never held in memory), so this schema documents the form and the route checks each part.
 */
export const mediaUploadFormSchema = z.preprocess(
  // The route reads the parts as they stream and checks each one (a JSON body is its 415): nothing to check here.
  () => undefined,
  z
    .object({
      file: z.file().meta({ description: 'The image: JPEG, PNG, WebP, GIF or AVIF, judged by its bytes' }),
      alt_text: z
        .string()
        .max(MAX_ALT_TEXT)
        .optional()
        .meta({ description: 'Text for readers who cannot see the image', example: 'A red mug' }),
    })
    .meta({ id: 'UploadMediaBody' })
    .optional(),
);

/** `alt_text` is a string as the spec types it: "" when the file has none. */
export const mediaRefSchema = z.object({ id: z.uuid(), url: z.string(), alt_text: z.string() });

export const productSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    price: z.number(),
    status: productStatusSchema,
    stock: z.number().int().nullable(),
    available: z
      .number()
      .int()
      .nullable()
      .describe(
        'stock less the quantities of active (unexpired) reservations of the product itself, never below 0; null when stock is not tracked',
      ),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(variantSchema).describe('Oldest first'),
    featured_image_id: z.uuid().nullable(),
    featured_image: mediaRefSchema.nullable(),
    /** The product's categories, in the order they were given. */
    category_ids: z.array(z.uuid()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Product' });
export type ProductRecord = z.infer<typeof productSchema>;

/** GET /api/v1/media (and the images' media files) */
export const listMediaQuerySchema = paginationQuerySchema;

export const mediaFileSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    alt_text: z.string(),
    filename: z.string(),
    mime_type: z.enum(MEDIA_MIME_TYPES),
    size: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'MediaFile' });
export type MediaFileRecord = z.infer<typeof mediaFileSchema>;

/** POST /api/v1/products/{id}/images */
export const attachImageBodySchema = z
  .strictObject(
    {
      media_file_id: recordId,
      is_featured: z.boolean({ message: 'must be true or false' }).default(false),
      order_index: orderIndex.optional(),
    },
    strictFields,
  )
  .meta({ id: 'AttachProductImageBody', example: { media_file_id: EXAMPLE_MEDIA_FILE_ID, is_featured: true } });
export type AttachImageBody = z.infer<typeof attachImageBodySchema>;

/** PATCH /api/v1/products/{id}/images/{imageId}; `alt_text` is the media file's. */
export const updateImageBodySchema = z
  .strictObject(
    {
      order_index: orderIndex.optional(),
      is_featured: z.boolean({ message: 'must be true or false' }).optional(),
      alt_text: altText.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateProductImageBody', example: { order_index: 0, alt_text: 'The mug from above' } });
export type UpdateImageBody = z.infer<typeof updateImageBodySchema>;

export const productImageSchema = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    media_file_id: z.uuid(),
    order_index: z.number().int(),
    is_featured: z.boolean(),
    media_file: mediaRefSchema,
    created_at: z.string(),
  })
  .meta({ id: 'ProductImage' });
export type ProductImageRecord = z.infer<typeof productImageSchema>;

/** Body of every DELETE of the catalog (product, image, media file). */
export const catalogDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
