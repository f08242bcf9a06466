import { z } from 'zod';
import { dollarsSchema } from './scalars.js';
import { nameString } from './safe-text.js';
import { strictFields } from './strict.js';
import { TEXT_LIMITS } from './text-limits.js';
import { listQuerySchema } from './pagination.js';

/** HTTP bodies and records of product options and variants (API.md, "Variants, inventory and categories"). */

export const MAX_PRODUCT_OPTIONS = 3;
export const MAX_OPTION_VALUES = 50;

const optionText = nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' });

/** One option of a product: its name and the values a variant may take (1..50, unique). */
export const productOptionSchema = z.strictObject(
  {
    name: optionText,
    values: z
      .array(optionText, { message: 'must be an array of strings' })
      .min(1, { message: 'must list at least 1 value' })
      .max(MAX_OPTION_VALUES, { message: `must list at most ${MAX_OPTION_VALUES} values` })
      .superRefine((values, ctx) => {
        values.forEach((value, index) => {
          if (values.indexOf(value) !== index) ctx.addIssue({ code: 'custom', path: [index], message: `repeats the value ${value}` });
        });
      }),
  },
  strictFields,
);
export type ProductOption = z.infer<typeof productOptionSchema>;

/** A product's options (0..3), their names unique. */
export const productOptionsSchema = z
  .array(productOptionSchema, { message: 'must be an array of options' })
  .max(MAX_PRODUCT_OPTIONS, { message: `must list at most ${MAX_PRODUCT_OPTIONS} options` })
  .superRefine((options, ctx) => {
    const names = options.map((option) => option.name);
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `repeats the option ${name}` });
    });
  })
  .meta({ id: 'ProductOptions', example: [{ name: 'Size', values: ['S', 'M', 'L'] }] });

const sku = nameString(TEXT_LIMITS.sku).trim().min(1, { message: 'must not be empty' });
const title = nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' }).nullable();
/** `{<option name>: <value>}`: checked against the product's options by the use case (400 naming `options.<name>`). */
const variantOptions = z.record(nameString(TEXT_LIMITS.name), nameString(TEXT_LIMITS.name), {
  message: 'must be an object of option names to values',
});
const stock = z
  .number({ message: 'must be an integer' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must not be negative' })
  .max(2_147_483_647, { message: 'is too large' })
  .nullable();

/** POST /api/v1/products/{id}/variants */
export const createVariantBodySchema = z
  .strictObject(
    {
      sku,
      title: title.optional(),
      options: variantOptions.default({}),
      price: dollarsSchema.nullable().optional(),
      stock: stock.optional(),
    },
    strictFields,
  )
  .meta({ id: 'CreateVariantBody', example: { sku: 'MUG-RED-L', options: { Colour: 'Red', Size: 'L' }, stock: 12 } });
export type CreateVariantBody = z.infer<typeof createVariantBodySchema>;

/** PATCH /api/v1/products/{id}/variants/{vid}: every field optional; `price: null` shows the product's price again. */
export const updateVariantBodySchema = z
  .strictObject(
    {
      sku: sku.optional(),
      title: title.optional(),
      options: variantOptions.optional(),
      price: dollarsSchema.nullable().optional(),
      stock: stock.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateVariantBody', example: { stock: 30 } });
export type UpdateVariantBody = z.infer<typeof updateVariantBodySchema>;

/** GET /api/v1/products/{id}/variants */
export const listVariantsQuerySchema = listQuerySchema({});
export type ListVariantsQuery = z.infer<typeof listVariantsQuerySchema>;

/** Record ids in paths are checked by the use case, so a malformed one is a 404 rather than a 400. */
export const variantParamsSchema = z.object({ id: z.string(), variantId: z.string() });

export const variantSchema = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    sku: z.string(),
    title: z.string().nullable(),
    options: z.record(z.string(), z.string()),
    /** The variant's own price, or the product's current one when it has none. */
    price: z.number(),
    stock: z.number().int().nullable(),
    available: z
      .number()
      .int()
      .nullable()
      .describe('stock less the quantities of active (unexpired) reservations, never below 0; null when stock is not tracked'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Variant' });
export type VariantRecord = z.infer<typeof variantSchema>;
