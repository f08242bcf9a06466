import type { FastifyReply, FastifyRequest } from 'fastify';
import { preconditionFailed } from '../errors.js';
import { entityTag, parseTagList, type RecordVersion } from './entity-tags.js';

/*
 * Conditional requests on one record (API.md, "Change feed, conditional requests and cursors"), the same for every
 * resource: a use case returns its record with the version it read or wrote (`Versioned`), a GET or PATCH answers it
 * with `answerRecord` (the ETag; for a GET whose If-None-Match holds it, a 304), and a PATCH or DELETE hands
 * `ifMatchOf(request)` to its use case, which checks it with `requireMatch` under the row lock of the write it
 * guards, so the check and the write are one: of two changes sent with one ETag, the second finds the new version.
 * A route declares `ifNoneMatchHeadersSchema` or `ifMatchHeadersSchema` (`@app/contracts`), and the route
 * conventions document the rest.
 */

/** A record with the version of the state it shows: what a use case of one record returns to a GET or a PATCH. */
export interface Versioned<R extends { id: string }> {
  record: R;
  version: RecordVersion;
}

/** What an `If-Match` asks of a write: any current record (`*`), or one of these strong tags. */
export interface IfMatch {
  readonly tags: '*' | readonly string[];
}

/** The request's `If-Match`; undefined without one (the write is unconditional). */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  const listed = parseTagList(request.headers['if-match']);
  if (listed === undefined) return undefined;
  // Strong comparison (RFC 9110 §13.1.1): a weak tag never matches, and every tag the API gives is strong.
  return { tags: listed === '*' ? '*' : listed.filter((tag) => !tag.weak).map((tag) => tag.opaque) };
}

/**
 * Throws 412 PRECONDITION_FAILED unless `ifMatch` (if any) holds the ETag of record `id` at `version`. Call it with
 * the version read under the lock the write holds (SELECT … FOR UPDATE in the write's transaction), before anything
 * is written: then nothing changes when it throws, and no other write comes in between. An unknown record is the
 * caller's 404 first (another organization's record never answers 412, which would tell it exists).
 */
export function requireMatch(ifMatch: IfMatch | undefined, current: { id: string; version: RecordVersion }): void {
  if (ifMatch === undefined || ifMatch.tags === '*') return;
  if (!ifMatch.tags.includes(entityTag(current.id, current.version))) throw preconditionFailed();
}

/**
 * The answer of a GET or PATCH of one record: `{data: record}` with its ETag. A GET (or HEAD) whose `If-None-Match`
 * holds that tag, or is `*`, gets 304 with the ETag and no body instead (weak comparison, RFC 9110 §13.1.2).
 */
export function answerRecord<R extends { id: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  { record, version }: Versioned<R>,
): { data: R } | FastifyReply {
  const etag = entityTag(record.id, version);
  void reply.header('etag', etag);
  if ((request.method === 'GET' || request.method === 'HEAD') && holds(request.headers['if-none-match'], etag)) {
    return reply.code(304).send();
  }
  return { data: record };
}

function holds(header: string | undefined, etag: string): boolean {
  const listed = parseTagList(header);
  return listed === '*' || (listed !== undefined && listed.some((tag) => tag.opaque === etag));
}

/**
 * RFC 9110 §13.2.2 for a GET or HEAD of a representation with these validators: true (answer 304) when
 * `If-None-Match` holds its ETag (weak comparison) or is `*`; without an `If-None-Match`, when `If-Modified-Since` is
 * a date at or after `lastModified` (when there is one) (whole seconds, as HTTP dates are). A request's `Cache-Control: no-cache` does not
 * matter here: it asks caches to revalidate with the origin, which this is (fetch adds it to every conditional request).
 */
export function isNotModified(
  request: Pick<FastifyRequest, 'method' | 'headers'>,
  validators: { etag: string; lastModified?: Date | undefined },
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.headers['if-none-match'] !== undefined) return holds(request.headers['if-none-match'], validators.etag);
  if (validators.lastModified === undefined) return false;
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(validators.lastModified.getTime() / 1000) * 1000 <= since;
}
