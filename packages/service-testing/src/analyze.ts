import { type BaseConfig, createPool, type RunningService } from '@app/service-kit';

/**
 * Gathers the planner's statistics of `tables` (schema-qualified) as autovacuum leaves them, for a test of a query
 * plan. As their owner, the migration login: Postgres skips, with only a warning, an ANALYZE by the service's role.
 */
export async function analyzeTables(running: RunningService<BaseConfig>, tables: readonly string[]): Promise<void> {
  const { config, log } = running.infra;
  const owner = createPool(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL, { max: 1, log });
  try {
    await owner.query(`ANALYZE ${tables.join(', ')}`);
  } finally {
    await owner.end();
  }
}
