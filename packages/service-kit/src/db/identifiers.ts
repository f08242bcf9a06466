/**
 * Names the kit writes into SQL text (schemas, roles, databases, tables): they come from configuration and code,
 * never from a request, and are checked here once so every statement can take them as they are.
 */

/** A schema as the services name theirs (lower case, digits, _): safe unquoted, as Postgres prints a search path. */
export function schemaName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsupported schema name "${name}"`);
  return name;
}

/** A quoted SQL identifier (a role, a database, a table; `-` allowed, as in test database names). */
export function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`Unsupported SQL identifier "${name}"`);
  return `"${name}"`;
}
