import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import type { BaseConfig } from '../config.js';
import { isTransientError } from '../transient-errors.js';
import { identifier } from './identifiers.js';
import { assertMigrated } from './migration-check.js';
import { adminUrlOf, ensureDatabase } from './pool.js';
import {
  createExtensions,
  DEFAULT_ROLE_TIMEOUTS,
  grantServiceAccess,
  provisionRoles,
  transferOwnership,
  withProvisioningLock,
  type RoleTimeouts,
  type ServiceRole,
} from './roles.js';

/** The kit's own tables (outbox, inbox), created in every service schema before the service's migrations. */
const KIT_MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface MigrateOptions {
  /** The service's own connection: its role is granted its schema once the migrations are applied. */
  databaseUrl: string;
  /**
   * The migration step's connection: the migration role, or a superuser, who then first creates the roles (the
   * migration role, the service's) and applies the migrations as the migration role. Default: `databaseUrl` (one
   * role for everything, as in a bare development database).
   */
  migrationUrl?: string | undefined;
  /** The role that owns the schemas and applies the migrations when `migrationUrl` is a superuser's (`migrator`). */
  migrationRole?: string;
  /** Set on the service's role when a superuser provisions it (the config's defaults otherwise). */
  timeouts?: RoleTimeouts;
  schema: string;
  /** The service's folder of plain-SQL migrations (0001_init.sql, 0002_…), applied in order. */
  dir: string;
  log?: (message: string) => void;
}

/** How a service's configuration says to migrate its schema (server start, `migrate.js`, the migration Job). */
export function migrationOptionsOf(
  config: Pick<
    BaseConfig,
    | 'DATABASE_URL'
    | 'DATABASE_MIGRATION_URL'
    | 'DATABASE_MIGRATION_ROLE'
    | 'DATABASE_STATEMENT_TIMEOUT_MS'
    | 'DATABASE_LOCK_TIMEOUT_MS'
    | 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'
  >,
  service: { schema: string; dir: string },
  log?: (message: string) => void,
): MigrateOptions {
  return {
    databaseUrl: config.DATABASE_URL,
    migrationUrl: config.DATABASE_MIGRATION_URL,
    migrationRole: config.DATABASE_MIGRATION_ROLE,
    timeouts: {
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    ...service,
    ...(log ? { log } : {}),
  };
}

/**
 * Applies pending migrations of the kit and then of the service, under an advisory lock (safe with replicas), then
 * grants the service's role its schema. Connected as a superuser, it first provisions the roles and the extensions.
 */
export async function migrate(options: MigrateOptions): Promise<void> {
  const migrationUrl = options.migrationUrl ?? options.databaseUrl;
  const migrationRole = options.migrationRole ?? 'migrator';
  const client = await connectCreatingDatabase(migrationUrl);
  try {
    const { rows } = await client.query<{ name: string; superuser: boolean; database: string; mayCreate: boolean }>(
      `SELECT current_user AS name, rolsuper AS superuser, current_database() AS database,
              has_database_privilege(current_database(), 'CREATE') AS "mayCreate"
         FROM pg_roles WHERE rolname = current_user`,
    );
    const me = rows[0];
    if (!me) throw new Error('the migration connection has no role');
    if (!me.superuser && !me.mayCreate) {
      // A service's own role (no DATABASE_MIGRATION_URL where the migration step runs apart): check, do not migrate.
      await assertMigrated(client, options.schema, [
        { dir: KIT_MIGRATIONS, table: 'kit_migrations' },
        { dir: options.dir, table: 'migrations' },
      ]);
      return;
    }
    const serviceRole = serviceRoleOf(options.databaseUrl, options.schema);
    const ownRole = migrationUrl !== options.databaseUrl && serviceRole.name !== me.name ? serviceRole : undefined;
    if (me.superuser && ownRole) {
      await provision(adminUrlOf(migrationUrl), me.database, migrationRole, ownRole, options.timeouts ?? DEFAULT_ROLE_TIMEOUTS);
    }
    await underMigrationLock(client, async () => {
      await createExtensions(client);
      if (me.superuser && ownRole) await transferOwnership(client, options.schema, migrationRole);
    });
    // From here on the migration role acts: the schema, its tables and functions are its own.
    if (me.superuser && ownRole) await client.query(`SET ROLE ${identifier(migrationRole)}`);
    const common = {
      dbClient: client,
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
    if (ownRole) await underMigrationLock(client, () => grantServiceAccess(client, options.schema, ownRole.name));
  } finally {
    await client.end();
  }
}

/**
 * How long the migration step waits for a connection. It is a one-shot job, not a request: when every service's step
 * starts at once (compose starts seven), a busy small Postgres took longer than 5 s to accept them all, and a step that
 * gave up stopped its service from starting (seen once in CI's compose test).
 */
const MIGRATION_CONNECT_TIMEOUT_MS = 30_000;

/**
 * How long it goes on trying while the server cannot be reached or does not answer: once, in CI's compose test, one
 * step's connect hung for the whole timeout while Postgres was up and its six siblings had connected (a container's
 * network not ready yet), and a second try would have found it.
 */
const MIGRATION_CONNECT_PATIENCE_MS = 120_000;

/** A connected client, tried again every second on a transient failure until MIGRATION_CONNECT_PATIENCE_MS. */
async function connectPatiently(connectionString: string): Promise<pg.Client> {
  const deadline = Date.now() + MIGRATION_CONNECT_PATIENCE_MS;
  for (;;) {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: MIGRATION_CONNECT_TIMEOUT_MS });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (!isTransientError(error) || Date.now() > deadline) throw error;
      await sleep(1000);
    }
  }
}

/**
 * A connection to the database of `url`, which is created first when it does not exist yet (a first start). Only then
 * is the server's `postgres` database asked: a role that may not connect there (managed databases revoke it) never needs to.
 */
async function connectCreatingDatabase(url: string): Promise<pg.Client> {
  try {
    return await connectPatiently(url);
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) throw error;
    await ensureDatabase(url);
    return connectPatiently(url);
  }
}

/** Postgres' "database does not exist". */
const INVALID_CATALOG_NAME = '3D000';

/** The service's role as its URL names it: the login and password it connects with. */
function serviceRoleOf(url: string, schema: string): ServiceRole {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.username) || process.env.PGUSER || 'postgres';
  return { name, password: parsed.password ? decodeURIComponent(parsed.password) : undefined, schema };
}

async function provision(
  adminUrl: string,
  database: string,
  migrationRole: string,
  serviceRole: ServiceRole,
  timeouts: RoleTimeouts,
): Promise<void> {
  const admin = await connectPatiently(adminUrl);
  try {
    await withProvisioningLock(admin, () => provisionRoles(admin, database, migrationRole, serviceRole, timeouts));
  } finally {
    await admin.end();
  }
}

/**
 * One transaction under the database's migration lock: concurrent CREATE EXTENSION IF NOT EXISTS, GRANT or ALTER OWNER
 * on one object (sibling services, replicas) would fail with a unique violation or "tuple concurrently updated".
 */
async function underMigrationLock(client: pg.ClientBase, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('scheduling-shop.migrate', 0))`);
    await fn();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
