import { z } from 'zod';
import { strictFields } from './strict.js';

const intString = (message: string) => z.string().regex(/^\d+$/, { message }).transform(Number);

/** `limit` (1..200, default 50) and `offset` (≥ 0, default 0) of every list endpoint. */
export const paginationQuerySchema = z.strictObject(
  {
    limit: intString('must be an integer from 1 to 200')
      .pipe(
        z.number().int().min(1, { message: 'must be an integer from 1 to 200' }).max(200, { message: 'must be an integer from 1 to 200' }),
      )
      .default(50),
    // Capped at Postgres' int4 range, which OFFSET parameters are cast to.
    offset: intString('must be a non-negative integer')
      .pipe(z.number().int().min(0).max(2_147_483_647, { message: 'must be at most 2147483647' }))
      .default(0),
  },
  strictFields,
);
export type Pagination = z.infer<typeof paginationQuerySchema>;
