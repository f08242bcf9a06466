import type pg from 'pg';
import { identifier, schemaName } from './identifiers.js';

/**
 * The extensions the services' migrations use, created once per database by the migration step (before any
 * service's migrations), in `public`, where every role finds their functions and operator classes.
 */
const DATABASE_EXTENSIONS = ['btree_gin', 'btree_gist', 'pg_trgm'] as const;

/** The per-role limits that keep one stuck statement, lock wait or abandoned transaction from holding a connection. */
export interface RoleTimeouts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** Short enough that a stuck request frees its connection long before a client gives up; long enough for any query here. */
export const DEFAULT_ROLE_TIMEOUTS: RoleTimeouts = { statementTimeoutMs: 5000, lockTimeoutMs: 3000, idleInTransactionTimeoutMs: 15_000 };

/** The role a service runs as: its login, its password (when its URL carries one) and its schema. */
export interface ServiceRole {
  name: string;
  password: string | undefined;
  schema: string;
}

/**
 * What only a superuser does, once per boot of the migration step: the migration role (which owns every schema and
 * applies the migrations), the service's own login role with its timeouts and search path, and the extensions. Roles
 * are cluster-wide while advisory locks are per database: callers hold `withProvisioningLock` on the `postgres`
 * database, so sibling services (and parallel test runs) never race on one role.
 */
export async function provisionRoles(
  client: pg.ClientBase,
  database: string,
  migrationRole: string,
  service: ServiceRole,
  timeouts: RoleTimeouts,
): Promise<void> {
  await ensureRole(client, migrationRole, { login: false });
  // CREATE on the database: the migration role creates the schemas (and trusted extensions, were it ever alone).
  await client.query(`GRANT CONNECT, CREATE ON DATABASE ${identifier(database)} TO ${identifier(migrationRole)}`);
  await ensureRole(client, service.name, { login: true, password: service.password });
  await setRoleDefaults(client, service.name, {
    statement_timeout: `${timeouts.statementTimeoutMs}ms`,
    lock_timeout: `${timeouts.lockTimeoutMs}ms`,
    idle_in_transaction_session_timeout: `${timeouts.idleInTransactionTimeoutMs}ms`,
    // A role setting, not only the pool's startup option: PgBouncer in transaction mode drops startup options.
    search_path: `${schemaName(service.schema)}, public`,
  });
}

/** Serializes provisioning across every database of the server: it runs on the `postgres` database, under one lock. */
export async function withProvisioningLock<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query(`SELECT pg_advisory_lock(hashtextextended('scheduling-shop.provision-roles', 0))`);
  try {
    return await fn();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtextextended('scheduling-shop.provision-roles', 0))`);
  }
}

/** Creates the extensions every service needs, once; run by the migration step before any migration. */
export async function createExtensions(client: pg.ClientBase): Promise<void> {
  for (const extension of DATABASE_EXTENSIONS) {
    await client.query(`CREATE EXTENSION IF NOT EXISTS ${identifier(extension)} WITH SCHEMA public`);
  }
}

/**
 * Hands a schema created before the migration role existed (by a superuser, in an older version) and everything in it
 * to that role, so that it may alter them in later migrations. A no-op once they are its own.
 */
export async function transferOwnership(client: pg.ClientBase, schema: string, role: string): Promise<void> {
  const { rows } = await client.query<{ statement: string }>(
    `SELECT format('ALTER SCHEMA %I OWNER TO %I', n.nspname, $2::text) AS statement
       FROM pg_namespace n WHERE n.nspname = $1 AND pg_get_userbyid(n.nspowner) <> $2
     UNION ALL
     -- Tables and views; a table's sequences and indexes follow it.
     SELECT format('ALTER %s %I.%I OWNER TO %I', CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                   n.nspname, c.relname, $2::text)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND pg_get_userbyid(c.relowner) <> $2
     UNION ALL
     SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, $2::text)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND pg_get_userbyid(p.proowner) <> $2`,
    [schema, role],
  );
  for (const { statement } of rows) await client.query(statement);
}

/**
 * What the service's role may do in its own schema: read and write rows, use sequences and functions. Nothing else
 * anywhere: no DDL, and no USAGE on another service's schema (so not even its table names). Run by the schema's owner
 * after every migration, so new tables are covered.
 */
export async function grantServiceAccess(client: pg.ClientBase, schema: string, role: string): Promise<void> {
  const s = identifier(schema);
  const r = identifier(role);
  await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
  await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
  await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${r}`);
  // The migration records are the migration role's: the service reads them (to check its schema) and writes none.
  for (const table of ['kit_migrations', 'migrations']) {
    await client.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON TABLE ${s}.${identifier(table)} FROM ${r}`);
  }
}

async function ensureRole(client: pg.ClientBase, name: string, options: { login: boolean; password?: string | undefined }): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
  const login = options.login ? 'LOGIN' : 'NOLOGIN';
  // NOINHERIT and no membership: the role holds only what is granted to it by name.
  if (rowCount === 0) await client.query(`CREATE ROLE ${identifier(name)} ${login} NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE`);
  // The password of the service's URL is the one it logs in with: a rotated secret takes effect at the next migration.
  if (options.password !== undefined)
    await client.query(`ALTER ROLE ${identifier(name)} PASSWORD ${client.escapeLiteral(options.password)}`);
}

/** Sets role defaults that differ from the wanted ones (ALTER ROLE on an unchanged value would still rewrite the row). */
async function setRoleDefaults(client: pg.ClientBase, role: string, settings: Record<string, string>): Promise<void> {
  const { rows } = await client.query<{ setting: string }>(
    `SELECT unnest(s.setconfig) AS setting FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
      WHERE r.rolname = $1 AND s.setdatabase = 0`,
    [role],
  );
  const current = new Set(rows.map((row) => row.setting));
  for (const [name, value] of Object.entries(settings)) {
    if (current.has(`${name}=${value}`)) continue;
    await client.query(`ALTER ROLE ${identifier(role)} SET ${name} TO ${name === 'search_path' ? value : client.escapeLiteral(value)}`);
  }
}
