import { z } from 'zod';
import { listQuerySchema } from './pagination.js';
import { nameString, proseString, slugSchema } from './safe-text.js';
import { uuidSchema } from './scalars.js';
import { strictFields } from './strict.js';
import { TEXT_LIMITS } from './text-limits.js';

/** HTTP bodies, queries and records of the catalog's category tree (API.md "Variants, inventory and categories"). */

/** Levels of a category tree: a root is level 1 (API.md). */
export const MAX_CATEGORY_LEVELS = 5;
/** The most categories one product may be in. */
export const MAX_PRODUCT_CATEGORIES = 50;

const name = nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' });
const description = proseString(TEXT_LIMITS.description).nullable();
/** A UUID here (a malformed one is a 400 naming the field); unknown or another organization's: the use case's 400. */
const parentId = uuidSchema.nullable();

/** POST /api/v1/categories: the slug is made from the name unless given (`-2`, `-3`… on collision). */
export const createCategoryBodySchema = z
  .strictObject(
    {
      name,
      slug: slugSchema.optional(),
      parent_id: parentId.optional(),
      description: description.optional(),
    },
    strictFields,
  )
  .meta({ id: 'CreateCategoryBody', example: { name: 'Mugs', description: 'Cups with handles' } });
export type CreateCategoryBody = z.infer<typeof createCategoryBodySchema>;

/** PATCH /api/v1/categories/{id}: `parent_id` moves the category (with its subtree; null: to the root). */
export const updateCategoryBodySchema = z
  .strictObject(
    {
      name: name.optional(),
      slug: slugSchema.optional(),
      parent_id: parentId.optional(),
      description: description.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateCategoryBody', example: { parent_id: null } });
export type UpdateCategoryBody = z.infer<typeof updateCategoryBodySchema>;

/** GET /api/v1/categories: flat, oldest first; `parent_id` tells the tree. */
export const listCategoriesQuerySchema = listQuerySchema({});
export type ListCategoriesQuery = z.infer<typeof listCategoriesQuerySchema>;

export const categorySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    parent_id: z.uuid().nullable(),
    description: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Category' });
export type CategoryRecord = z.infer<typeof categorySchema>;

/**
 * A product's `category_ids` (create and PATCH): a replaced list, kept in the order given; a repeated id counts once
 * (the use case drops repeats, so an unknown id's 400 names its index as the client sent it).
 */
export const productCategoryIdsSchema = z
  .array(uuidSchema, { message: 'must be a list of category ids' })
  .max(MAX_PRODUCT_CATEGORIES, { message: `must list at most ${MAX_PRODUCT_CATEGORIES} categories` });

/** `category_id` of GET /api/v1/products: the category and everything below it. */
export const productCategoryFilterSchema = uuidSchema;

/** Body of DELETE /api/v1/categories/{id}. */
export const categoryDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
