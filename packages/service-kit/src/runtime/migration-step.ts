import { baseConfigFields, loadConfigOrExit } from '../config.js';
import { migrate, migrationOptionsOf } from '../db/migrate.js';

/** The variables the migration step reads: the database ones only, so a migration Job needs no service secrets. */
const migrationConfigSchema = baseConfigFields.pick({
  NODE_ENV: true,
  DATABASE_URL: true,
  DATABASE_MIGRATION_URL: true,
  DATABASE_MIGRATION_ROLE: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
  DATABASE_LOCK_TIMEOUT_MS: true,
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: true,
});

/**
 * The body of every service's `migrate.ts` (`npm run migrate`, compose's `<service>-migrate`, the Kubernetes migrate
 * Job): applies the service's migrations as DATABASE_MIGRATION_URL's role and grants DATABASE_URL's role its schema.
 */
export async function runMigrationStep(
  service: { name: string; schema: string; dir: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const config = loadConfigOrExit(migrationConfigSchema, service.name, env);
  await migrate(migrationOptionsOf(config, service, (message) => console.log(`[${service.name}] ${message}`)));
}
