import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import { ensureDatabase } from './pool.js';

/** The kit's own tables (outbox, inbox), created in every service schema before the service's migrations. */
const KIT_MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  schema: string;
  /** The service's folder of plain-SQL migrations (0001_init.sql, 0002_…), applied in order. */
  dir: string;
  log?: (message: string) => void;
}

/** Applies pending migrations of the kit and then of the service, under an advisory lock (safe with replicas). */
export async function migrate(options: MigrateOptions): Promise<void> {
  await ensureDatabase(options.databaseUrl);
  const common = {
    databaseUrl: options.databaseUrl,
    direction: 'up' as const,
    schema: options.schema,
    migrationsSchema: options.schema,
    createSchema: true,
    createMigrationsSchema: true,
    checkOrder: true,
    // Replicas and sibling services migrate at once on boot: queue behind the lock instead of failing.
    advisoryLockMode: 'wait' as const,
    log: options.log ?? (() => undefined),
  };
  await runner({ ...common, dir: KIT_MIGRATIONS, migrationsTable: 'kit_migrations' });
  await runner({ ...common, dir: options.dir, migrationsTable: 'migrations' });
}
