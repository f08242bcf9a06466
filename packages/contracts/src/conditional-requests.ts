import { z } from 'zod';

/*
 * Conditional requests (API.md, "Change feed, conditional requests and cursors"): an answer that shows one record
 * carries its ETag; a GET with `If-None-Match` holding it is a 304, a PATCH or DELETE with an `If-Match` that is not
 * it is a 412 `PRECONDITION_FAILED`. A route says which of the two request headers it honours by declaring one of
 * these header schemas; the service kit's route conventions then add the 304, the 412 and the ETag response header to
 * its document (service-kit `http/route-conventions.ts`), and the kit answers them (`http/conditional-requests.ts`).
 */

/** The ETag response header, as each answer that shows one record documents it. */
const ETAG_RESPONSE_HEADER = {
  etag: {
    type: 'string',
    description:
      "The record's strong entity tag (opaque, quoted), which changes whenever the record does. Send it back in " +
      '`If-None-Match` (a 304 while the record is unchanged) or in `If-Match` (a PATCH or DELETE then applies to this ' +
      'version only, else 412 `PRECONDITION_FAILED`).',
    examples: ['"q3BQxWn1V8fVbS2pC9tKjA"'],
  },
};

/** The request header of a GET of one record. */
export const ifNoneMatchHeadersSchema = z.looseObject({
  'if-none-match': z
    .string()
    .optional()
    .meta({
      description:
        'ETags of the copies the client holds (comma-separated; `W/` tags compare weakly), or `*`: when one of them is ' +
        "the record's current ETag, the answer is 304 Not Modified with no body.",
    }),
});

/** The request header of a PATCH or DELETE of one record. */
export const ifMatchHeadersSchema = z.looseObject({
  'if-match': z
    .string()
    .optional()
    .meta({
      description:
        'The ETag the change is meant for (a comma-separated list, compared strongly, or `*` for any current one): ' +
        "when none of them is the record's current ETag, the answer is 412 `PRECONDITION_FAILED` and nothing is changed. " +
        'The comparison is made in the same transaction as the write, so of two changes sent with one ETag only one applies.',
    }),
});

/** The 304 of a GET whose `If-None-Match` holds the current ETag: no body, the ETag repeated. */
export const notModifiedResponseSchema = z.null().meta({
  description: "Not Modified: the record's current ETag is one the request's `If-None-Match` holds. No body.",
  headers: ETAG_RESPONSE_HEADER,
});

/** `schema` (the 200 of a GET or PATCH of one record) documented with the ETag header its answers carry. */
export function withEtagHeader<T extends z.ZodType>(schema: T): T {
  return schema.meta({ headers: ETAG_RESPONSE_HEADER });
}
