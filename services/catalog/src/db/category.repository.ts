import type { ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { Category } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type CategoryRow = Category;

/** Every field a create writes. */
export type NewCategory = Pick<Category, 'id' | 'organizationId' | 'name' | 'slug' | 'parentId' | 'description'>;

/** What a PATCH may change (`parentId` only together with the tree's paths: category-tree.repository.ts). */
export type CategoryChanges = Partial<Pick<Category, 'name' | 'slug' | 'parentId' | 'description'>>;

export function insertCategory(db: Db, category: NewCategory): Promise<CategoryRow> {
  return db.category.create({ data: category });
}

export function findCategory(db: Db, organizationId: string, id: string): Promise<CategoryRow | null> {
  return db.category.findFirst({ where: { id, organizationId } });
}

/** Updates the category (its version and updated_at move by trigger); a taken slug throws the unique violation. */
export async function updateCategory(db: Db, organizationId: string, id: string, changes: CategoryChanges): Promise<CategoryRow | null> {
  const { count } = await db.category.updateMany({ where: { id, organizationId }, data: changes });
  return count === 0 ? null : findCategory(db, organizationId, id);
}

export async function deleteCategory(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.category.deleteMany({ where: { id, organizationId } });
  return count > 0;
}

export async function hasChildren(db: Db, organizationId: string, id: string): Promise<boolean> {
  return (await db.category.count({ where: { organizationId, parentId: id }, take: 1 })) > 0;
}

/** Slugs of the organization that a generated `base` could collide with: `base` and `base-…`. */
export async function categorySlugsLike(db: Db, organizationId: string, base: string): Promise<string[]> {
  const rows = await db.category.findMany({
    where: { organizationId, OR: [{ slug: base }, { slug: { startsWith: `${base}-` } }] },
    select: { slug: true },
  });
  return rows.map((row) => row.slug);
}

/** Oldest first, then by id: served by categories_org_created_idx (organization, created_at, id). */
export const CATEGORY_LIST: ListDefinition = {
  name: 'categories',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of the organization's categories, flat (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listCategories(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  page: ListPage,
): Promise<{ rows: CategoryRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'categories', conditions, params });
  const rows = await db.prisma.category.findMany({ where: { organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}
