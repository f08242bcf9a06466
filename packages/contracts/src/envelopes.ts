import { z } from 'zod';

/** `meta` of every list response. */
export const listMetaSchema = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  /** Records of the list before this page: the `offset` asked for, or, after a cursor, the number before it. */
  offset: z.number().int(),
  hasMore: z.boolean(),
  next_cursor: z.string().nullable().meta({
    description:
      'Give it as `cursor` (with the same filters) for the page after this one; null on the last page. Opaque: never parse or build it.',
  }),
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
