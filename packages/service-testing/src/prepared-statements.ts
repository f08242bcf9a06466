import type { Queryable } from '@app/service-kit';

/** How often Postgres planned a prepared statement for its values (custom) and how often it reused its generic plan. */
export interface PreparedPlans {
  generic: number;
  custom: number;
}

/**
 * The prepared statements of `db`'s session whose text is LIKE `pattern`, for a test that a statement is parsed once
 * per connection. Prepared statements are a session's own, so `db` is the one-connection pool the work ran on; an
 * unnamed statement (parsed and planned on every call) never shows here.
 */
export async function preparedPlans(db: Queryable, pattern: string): Promise<PreparedPlans[]> {
  const { rows } = await db.query<PreparedPlans>(
    'SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement LIKE $1',
    [pattern],
  );
  return rows;
}
