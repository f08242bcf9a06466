import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

/** Prisma's driver adapter over the service's pool, with every query bound to the service's own schema. */
export function prismaAdapter(pool: pg.Pool, schema: string): PrismaPg {
  return new PrismaPg(pool, { schema });
}
