import type pg from 'pg';

/** What a statement answers: its rows, and how many rows it touched (null for statements that report none). */
export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

/**
 * The one way the kit and the services send SQL: a pool, a client inside `withTransaction`, or a Prisma
 * transaction seen through `sqlOf` all answer `query(text, values)` with pg's result shape. Prisma's model
 * API stays for plain CRUD; everything written as SQL goes through this.
 */
export interface Queryable {
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]): Promise<SqlResult<Row>>;
}

/** The raw-SQL methods of a Prisma client or of one of its interactive transactions. */
export interface PrismaRaw {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * A Prisma interactive transaction as a `Queryable`, so SQL that must commit with Prisma model writes (the
 * outbox row of a change, a row lock before an update) is written the same way as on the pool. Prisma's
 * raw queries report no row count: a statement whose count matters says RETURNING and counts its rows.
 */
export function sqlOf(prisma: PrismaRaw): Queryable {
  return {
    async query<Row extends pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]): Promise<SqlResult<Row>> {
      const statement =
        typeof text === 'string' ? { text, values: values ?? [] } : { text: text.text, values: (text.values ?? []) as unknown[] };
      const rows = await prisma.$queryRawUnsafe<Row[]>(statement.text, ...statement.values);
      return { rows, rowCount: rows.length };
    },
  };
}

/** `db` as a `Queryable`: itself when it is one (a pool or a client), else through `sqlOf` (a Prisma transaction). */
export function queryableOf(db: Queryable | PrismaRaw): Queryable {
  return 'query' in db ? db : sqlOf(db);
}
