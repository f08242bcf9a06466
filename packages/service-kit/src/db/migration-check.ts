import { readdirSync } from 'node:fs';
import { parse } from 'node:path';
import type pg from 'pg';
import { identifier } from './identifiers.js';

/**
 * For a role that may not migrate (the service's own, in a deployment whose migration step runs apart): the service
 * starts only if every migration of `dirs` is recorded in its table, so new code never runs on an old schema.
 */
export async function assertMigrated(client: pg.ClientBase, schema: string, dirs: { dir: string; table: string }[]): Promise<void> {
  const pending: string[] = [];
  for (const { dir, table } of dirs) {
    const applied = await client
      .query<{ name: string }>(`SELECT name FROM ${identifier(schema)}.${identifier(table)}`)
      .then((result) => new Set(result.rows.map((row) => row.name)))
      .catch((error: { code?: string }) => {
        // 42P01 / 3F000: no table or no schema yet, so nothing is applied; 42501: no grant yet, the same for us.
        if (error.code === '42P01' || error.code === '3F000' || error.code === '42501') return new Set<string>();
        throw error;
      });
    for (const file of readdirSync(dir).sort()) {
      const name = parse(file).name;
      if (!applied.has(name)) pending.push(name);
    }
  }
  if (pending.length > 0) {
    throw new Error(
      `schema ${schema} lacks ${pending.length} migration(s) (${pending.join(', ')}), and this role may not apply them: ` +
        'run the migration step first (the service with DATABASE_MIGRATION_URL, or its migrate Job)',
    );
  }
}
