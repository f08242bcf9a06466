import { sqlOf } from '@app/service-kit';
import type { Db } from './prisma.js';

/**
 * The shape of an organization's category tree, kept in the closure table category_paths (migration 0007). Every
 * create, move and delete of the organization's categories first takes `lockTree`, so the checks below and the writes
 * after them see a tree no other transaction is changing: two moves that would together form a cycle run one after
 * the other, and the second finds the first's paths.
 */

/** Serialises the organization's tree changes until the transaction ends. */
export async function lockTree(db: Db, organizationId: string): Promise<void> {
  // Selected FROM the call: the lock function returns void, which is no value to hand back.
  await sqlOf(db).query('SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `catalog.categories:${organizationId}`,
  ]);
}

/** Where a category stands: its level (a root is 1) and the height of its subtree (a leaf's is 0). */
export interface TreePlace {
  level: number;
  height: number;
}

/** The level and subtree height of the organization's category `id`; null when it has none such. */
export async function treePlace(db: Db, organizationId: string, id: string): Promise<TreePlace | null> {
  const { rows } = await sqlOf(db).query<TreePlace>(
    `SELECT (SELECT count(*)::int FROM category_paths up WHERE up.descendant_id = c.id) AS level,
            (SELECT coalesce(max(down.depth), 0)::int FROM category_paths down WHERE down.ancestor_id = c.id) AS height
       FROM categories c
      WHERE c.id = $1::uuid AND c.organization_id = $2::uuid`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** Whether `descendant` is `ancestor` or below it. */
export async function isInSubtree(db: Db, ancestor: string, descendant: string): Promise<boolean> {
  const { rows } = await sqlOf(db).query<{ found: boolean }>(
    `SELECT true AS found FROM category_paths WHERE ancestor_id = $1::uuid AND descendant_id = $2::uuid`,
    [ancestor, descendant],
  );
  return rows.length > 0;
}

/** The paths of a new leaf `id`: itself, and one to each of `parentId`'s ancestors (the parent included). */
export async function addLeafPaths(db: Db, id: string, parentId: string | null): Promise<void> {
  await sqlOf(db).query(
    `INSERT INTO category_paths (ancestor_id, descendant_id, depth)
     SELECT $1::uuid, $1::uuid, 0
     UNION ALL
     SELECT ancestor_id, $1::uuid, depth + 1 FROM category_paths WHERE descendant_id = $2::uuid
     RETURNING depth`,
    [id, parentId],
  );
}

/**
 * Moves the subtree of `id` under `parentId` (null: to the root): the paths from its former ancestors to each of its
 * nodes go, and paths from each of the new parent's ancestors (the parent included) to each of its nodes come. The
 * paths inside the subtree stay.
 */
export async function moveSubtreePaths(db: Db, id: string, parentId: string | null): Promise<void> {
  const sql = sqlOf(db);
  await sql.query(
    `DELETE FROM category_paths p
      USING category_paths up, category_paths down
      WHERE up.descendant_id = $1::uuid AND up.ancestor_id <> $1::uuid
        AND down.ancestor_id = $1::uuid
        AND p.ancestor_id = up.ancestor_id AND p.descendant_id = down.descendant_id
      RETURNING p.depth`,
    [id],
  );
  if (parentId === null) return;
  await sql.query(
    `INSERT INTO category_paths (ancestor_id, descendant_id, depth)
     SELECT up.ancestor_id, down.descendant_id, up.depth + down.depth + 1
       FROM category_paths up, category_paths down
      WHERE up.descendant_id = $2::uuid AND down.ancestor_id = $1::uuid
     RETURNING depth`,
    [id, parentId],
  );
}
