import { z } from 'zod';
import { queryInteger } from './scalars.js';
import { strictFields } from './strict.js';

const LIMIT_MESSAGE = 'must be an integer from 1 to 200';
const OFFSET_MESSAGE = 'must be a non-negative integer';

/** `limit` (1..200, default 50) and `offset` (≥ 0, default 0) of every list endpoint. */
export const paginationQuerySchema = z.strictObject(
  {
    limit: queryInteger(
      z
        .number({ message: LIMIT_MESSAGE })
        .int({ message: LIMIT_MESSAGE })
        .min(1, { message: LIMIT_MESSAGE })
        .max(200, { message: LIMIT_MESSAGE }),
    )
      .default(50)
      .meta({ example: 50 }),
    // Capped at Postgres' int4 range, which OFFSET parameters are cast to.
    offset: queryInteger(
      z
        .number({ message: OFFSET_MESSAGE })
        .int({ message: OFFSET_MESSAGE })
        .min(0, { message: OFFSET_MESSAGE })
        .max(2_147_483_647, { message: 'must be at most 2147483647' }),
    )
      .default(0)
      .meta({ example: 0 }),
  },
  strictFields,
);
export type Pagination = z.infer<typeof paginationQuerySchema>;
