import { randomUUID } from 'node:crypto';
import {
  categoryCreatedEvent,
  categoryDeletedEvent,
  categoryUpdatedEvent,
  type CategoryRecord,
  type CreateCategoryBody,
  type ListCategoriesQuery,
  type ListMeta,
  type UpdateCategoryBody,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  isUniqueViolation,
  listPage,
  lockVersion,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import * as categories from '../db/category.repository.js';
import { addLeafPaths, lockTree, moveSubtreePaths } from '../db/category-tree.repository.js';
import type { Db } from '../db/prisma.js';
import { categoryRecord } from '../domain/category.record.js';
import { NOT_EMPTY_MESSAGE } from '../domain/category-tree.js';
import { nextFreeSlug, slugFromName } from '../domain/slug.js';
import { requireParent, requireParentFor } from './category-parent.js';
import { categoryWrite, type UseCaseContext } from './context.js';
import { detachFromProducts } from './category-products.js';

const SLUG_INDEX = 'categories_org_slug_key';
/** A generated slug can still lose a race against an explicit one a PATCH sets (no tree lock); then it is generated again. */
const GENERATED_SLUG_ATTEMPTS = 5;

const categoryNotFound = (): AppError => notFound('Category');
const slugTaken = (): AppError => new AppError('SLUG_TAKEN', 'A category with this slug already exists');

type CategoryEvent = typeof categoryCreatedEvent | typeof categoryUpdatedEvent;

/** Records the change event of a written category (with its record as `GET` shows it) and answers that record. */
async function recordCategoryChange(
  tx: Db,
  caller: Caller,
  contract: CategoryEvent,
  row: categories.CategoryRow,
  before?: CategoryRecord,
): Promise<CategoryRecord> {
  const record = categoryRecord(row);
  const previous = before && { previous_attributes: previousAttributes(before, record) };
  const data = { id: row.id, slug: row.slug, parent_id: row.parentId, record, ...previous };
  await recordEvent(tx, contract, data, eventContextOf(caller));
  return record;
}

export async function createCategory(ctx: UseCaseContext, caller: Caller, body: CreateCategoryBody): Promise<CategoryRecord> {
  const organizationId = caller.organizationId;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await categoryWrite(ctx, async (tx) => {
        await lockTree(tx, organizationId);
        const parentId = body.parent_id?.toLowerCase() ?? null;
        if (parentId !== null) await requireParent(tx, organizationId, parentId, 0); // 400 unknown / too deep
        const id = randomUUID();
        const row = await categories.insertCategory(tx, {
          id,
          organizationId,
          name: body.name,
          slug: body.slug ?? (await generateSlug(tx, organizationId, body.name)),
          parentId,
          description: body.description ?? null,
        });
        await addLeafPaths(tx, id, parentId);
        return recordCategoryChange(tx, caller, categoryCreatedEvent, row);
      });
    } catch (error) {
      if (!isUniqueViolation(error, SLUG_INDEX)) throw error;
      if (body.slug !== undefined || attempt >= GENERATED_SLUG_ATTEMPTS) throw slugTaken();
    }
  }
}

export async function getCategory(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<CategoryRecord>> {
  const row = await categories.findCategory(ctx.prisma, caller.organizationId, recordId(rawId, categoryNotFound));
  if (!row) throw categoryNotFound();
  return { record: categoryRecord(row), version: row.version };
}

export async function listCategories(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListCategoriesQuery,
): Promise<{ items: CategoryRecord[]; meta: ListMeta }> {
  const page = listPage(categories.CATEGORY_LIST, { organizationId: caller.organizationId }, query);
  const { rows, meta } = await categories.listCategories(ctx, caller.organizationId, page);
  return { items: rows.map(categoryRecord), meta };
}

export async function updateCategory(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, changes: body, ifMatch }: { id: string; changes: UpdateCategoryBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<CategoryRecord>> {
  const id = recordId(rawId, categoryNotFound);
  const organizationId = caller.organizationId;
  if (Object.values(body).every((value) => value === undefined)) {
    // Nothing to change: no write, no event, updated_at stays; a stale If-Match is still refused.
    const current = await getCategory(ctx, caller, id);
    requireMatch(ifMatch, { id, version: current.version });
    return current;
  }
  try {
    return await categoryWrite(ctx, async (tx) => {
      // A move changes the tree: the organization's tree lock first (as every create, move and delete takes it), then the row.
      const moving = body.parent_id !== undefined;
      if (moving) await lockTree(tx, organizationId);
      // NO KEY UPDATE: products may keep taking the category meanwhile (their foreign key's share lock).
      const version = await lockVersion(tx, 'categories', organizationId, id, 'NO KEY UPDATE');
      if (version === null) throw categoryNotFound();
      requireMatch(ifMatch, { id, version });
      const before = await categories.findCategory(tx, organizationId, id);
      if (!before) throw categoryNotFound();
      if (moving) {
        const parentId = body.parent_id?.toLowerCase() ?? null;
        await requireParentFor(tx, organizationId, id, parentId); // 409 cycle, 400 unknown / too deep
        if (parentId !== before.parentId) await moveSubtreePaths(tx, id, parentId);
      }
      const row = await categories.updateCategory(tx, organizationId, id, {
        name: body.name,
        slug: body.slug,
        parentId: body.parent_id?.toLowerCase() ?? body.parent_id,
        description: body.description,
      });
      if (!row) throw categoryNotFound();
      const record = await recordCategoryChange(tx, caller, categoryUpdatedEvent, row, categoryRecord(before));
      return { record, version: row.version };
    });
  } catch (error) {
    // The unique index is the judge of a renamed slug: no check-then-write race.
    if (isUniqueViolation(error, SLUG_INDEX)) throw slugTaken();
    throw error;
  }
}

/**
 * Deletes a category without children (409 CATEGORY_NOT_EMPTY otherwise). Its products lose it: each is changed
 * (version, updated_at) and sends its `product.updated` with the `category_ids` it had.
 */
export async function deleteCategory(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, categoryNotFound);
  const organizationId = caller.organizationId;
  await categoryWrite(ctx, async (tx) => {
    await lockTree(tx, organizationId);
    // FOR UPDATE: from here no product can take the category (their foreign key's share lock waits, then fails).
    const version = await lockVersion(tx, 'categories', organizationId, id);
    if (version === null) throw categoryNotFound();
    requireMatch(ifMatch, { id, version });
    // Under the tree lock no child can be added meanwhile.
    if (await categories.hasChildren(tx, organizationId, id)) throw new AppError('CATEGORY_NOT_EMPTY', NOT_EMPTY_MESSAGE);
    await detachFromProducts(tx, caller, id, ctx.publicBaseUrl);
    if (!(await categories.deleteCategory(tx, organizationId, id))) throw categoryNotFound();
    await recordEvent(tx, categoryDeletedEvent, { id }, eventContextOf(caller));
  });
  return { id, deleted: true };
}

/** The next free slug of the name's family; generated under the tree lock, which every create takes (only a PATCH's explicit slug can still race it). */
async function generateSlug(tx: Db, organizationId: string, name: string): Promise<string> {
  const base = slugFromName(name, 'category');
  return nextFreeSlug(base, await categories.categorySlugsLike(tx, organizationId, base));
}
