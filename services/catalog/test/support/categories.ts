import { randomUUID } from 'node:crypto';
import type { Client } from './harness.js';

export interface CategoryBody {
  id: string;
  name: string;
  slug: string;
  parent_id: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** Creates a category (a root unless `parent_id` is given) and returns its record. */
export async function createCategory(client: Client, body: Record<string, unknown> = {}): Promise<CategoryBody> {
  const response = await client.post('/api/v1/categories', { name: `Category ${randomUUID().slice(0, 8)}`, ...body });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json<{ data: CategoryBody }>().data;
}

/** A chain of `levels` categories, each the child of the one before; the root first. */
export async function createChain(client: Client, levels: number, under: string | null = null): Promise<CategoryBody[]> {
  const chain: CategoryBody[] = [];
  let parent = under;
  for (let level = 0; level < levels; level += 1) {
    const category = await createCategory(client, parent === null ? {} : { parent_id: parent });
    chain.push(category);
    parent = category.id;
  }
  return chain;
}

/** Every category of the organization (all pages). */
export async function allCategories(client: Client): Promise<CategoryBody[]> {
  const all: CategoryBody[] = [];
  let cursor: string | null = null;
  do {
    const response = await client.get(`/api/v1/categories?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (response.statusCode !== 200) throw new Error(`list failed: ${response.statusCode} ${response.body}`);
    const body = response.json<{ data: CategoryBody[]; meta: { next_cursor: string | null } }>();
    all.push(...body.data);
    cursor = body.meta.next_cursor;
  } while (cursor !== null);
  return all;
}

/** The parent chain of each category as the list tells it must end at a root within `maxLevels` steps: no cycle, no deeper tree. */
export function treeProblems(categories: readonly CategoryBody[], maxLevels: number): string[] {
  const parentOf = new Map(categories.map((category) => [category.id, category.parent_id]));
  const problems: string[] = [];
  for (const category of categories) {
    let level = 1;
    let parent = category.parent_id;
    while (parent !== null && level <= maxLevels + 1) {
      level += 1;
      parent = parentOf.get(parent) ?? null;
    }
    if (level > maxLevels) problems.push(`${category.id} is at level ${level} or in a cycle`);
  }
  return problems;
}
