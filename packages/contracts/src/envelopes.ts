import { z } from 'zod';

/** `meta` of every list response. */
export const listMetaSchema = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  hasMore: z.boolean(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

/** `{data: record}`: the shape of every single-record response. */
export function dataEnvelope<T extends z.ZodType>(record: T) {
  return z.object({ data: record });
}

/** `{data: [...], meta}`: the shape of every paginated list response. */
export function listEnvelope<T extends z.ZodType>(record: T) {
  return z.object({ data: z.array(record), meta: listMetaSchema });
}

export function listMeta(total: number, limit: number, offset: number): ListMeta {
  return { total, limit, offset, hasMore: offset + limit < total };
}
