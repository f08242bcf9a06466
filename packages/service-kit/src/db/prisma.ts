import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

/** Prisma's driver adapter over the service's pool, with every query bound to the service's own schema. */
export function prismaAdapter(pool: pg.Pool, schema: string): PrismaPg {
  return new PrismaPg(pool, { schema });
}

/** The raw-SQL surface of a Prisma client, PgDb or one of their transactions that the kit's outbox and inbox need. */
export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** A database as the kit's outbox and consumers see it: raw SQL plus transactions (PgDb, or a Prisma client). */
export interface TransactionalDb extends SqlExecutor {
  $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R>;
}
