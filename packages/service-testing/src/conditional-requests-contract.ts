import { describe, expect, it } from 'vitest';

/** A response as the conditional-request tests read it: the body as sent (a 304 has none). */
export interface ConditionalReply {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

type Headers = Record<string, string>;

/**
 * One record of a caller of its own, reached through the service's API. What a resource lacks (a product image has
 * no GET of one, a registration no PATCH) is left out, and the tests that need it are not defined for that resource.
 */
export interface ConditionalRecord {
  /** GET of the record, with these request headers. */
  get?(headers: Headers): Promise<ConditionalReply>;
  /** A PATCH that changes the record: call `n` sends a change of its own (another title, another metadata value). */
  patch?(headers: Headers, n: number): Promise<ConditionalReply>;
  /** DELETE of the record. */
  remove?(headers: Headers): Promise<ConditionalReply>;
  /** Changes the record another way than PATCH, for a resource without one: its ETag must change too. */
  change?(): Promise<void>;
  /** The record as the API shows it now (a GET's data, or its entry in a list): "nothing changed" compares these. */
  state(): Promise<unknown>;
}

/** One kind of record, for describeConditionalRequests. */
interface ConditionalResource {
  name: string;
  /** A new record of a caller of its own. */
  arrange(): Promise<ConditionalRecord>;
}

/** The reply of `app.inject` as a ConditionalReply. */
function conditionalReply(response: { statusCode: number; headers: Record<string, unknown>; body: string }): ConditionalReply {
  return { status: response.statusCode, headers: response.headers, body: response.body };
}

/** What `app.inject` needs: a service app, or a running service's `app`. */
interface Injectable {
  inject(options: { method: 'GET' | 'PATCH' | 'DELETE'; url: string; headers: Headers; payload?: object }): PromiseLike<{
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }>;
}

/**
 * GET, PATCH and DELETE of one record's `url` on `app`, as the caller whose headers are `caller` (with a test's own
 * headers added per request), and the record's `data` as a GET shows it: the parts of most ConditionalRecords.
 */
export function recordRequests(app: Injectable, caller: Headers, url: string) {
  const send = async (method: 'GET' | 'PATCH' | 'DELETE', headers: Headers, payload?: object) =>
    conditionalReply(await app.inject({ method, url, headers: { ...caller, ...headers }, ...(payload ? { payload } : {}) }));
  return {
    get: (headers: Headers) => send('GET', headers),
    patch: (headers: Headers, body: object) => send('PATCH', headers, body),
    remove: (headers: Headers) => send('DELETE', headers),
    /** The record's `data` as its GET answers it now. */
    data: async () => (JSON.parse((await send('GET', {})).body) as { data: unknown }).data,
  };
}

const PRECONDITION_FAILED = { error: "If-Match does not match the record's current ETag", code: 'PRECONDITION_FAILED' };
/** A strong tag the API never gives: stale for every record. */
const FOREIGN_TAG = '"not-this-record"';

function etagOf(reply: ConditionalReply): string {
  const etag = reply.headers.etag;
  if (typeof etag !== 'string') throw new Error(`no ETag on a ${reply.status}: ${reply.body}`);
  return etag;
}

function expectPreconditionFailed(reply: ConditionalReply): void {
  expect({ status: reply.status, body: JSON.parse(reply.body) as unknown }).toEqual({ status: 412, body: PRECONDITION_FAILED });
}

/** Replies as their statuses, counted: a failed race assertion shows what came back. */
function tally(replies: ConditionalReply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) counts[String(reply.status)] = (counts[String(reply.status)] ?? 0) + 1;
  return counts;
}

/** The ways a resource has to reach its records: a test that needs another is not defined for it. */
type Ways = Partial<Record<keyof ConditionalRecord, true>>;

/**
 * API.md's conditional requests, the same for every record of every service: a strong ETag on GET, `If-None-Match`
 * → 304 with no body, an ETag that changes with the record, `If-Match` other than the current ETag → 412
 * `PRECONDITION_FAILED` with nothing changed (PATCH and DELETE), the new ETag on a PATCH's answer, and the check made
 * with the write: of 10 PATCHes sent at once with one ETag exactly one applies. `has` lists the ways of
 * ConditionalRecord the resource's `arrange` gives, so each service states its table once.
 */
export function describeConditionalRequests(resources: (ConditionalResource & { has: Ways })[]): void {
  describe.each(resources)('$name: conditional requests', (resource) => {
    const lacks = (...ways: (keyof ConditionalRecord)[]) => !ways.every((way) => resource.has[way]);
    const changes = resource.has.patch || resource.has.change;
    // A test this resource has no way to run is not defined at all (rather than skipped): a skipped test would read
    // as one left behind.
    const itWhen = (applies: boolean) => (applies ? it : () => undefined);

    /** Changes the record (a PATCH, or its other way) and says so. */
    async function change(record: ConditionalRecord, n: number): Promise<void> {
      if (record.patch) expect((await record.patch({}, n)).status).toBe(200);
      else await record.change!();
    }

    itWhen(!lacks('get'))('when it is read, then the answer carries a strong ETag', async () => {
      const record = await resource.arrange();
      const read = await record.get!({});
      expect(read.status).toBe(200);
      expect(etagOf(read)).toMatch(/^"[\x21\x23-\x7e]+"$/);
      expect(etagOf(await record.get!({}))).toBe(etagOf(read));
    });

    itWhen(!lacks('get'))('when If-None-Match holds the current ETag, then the answer is 304 with no body', async () => {
      const record = await resource.arrange();
      const etag = etagOf(await record.get!({}));
      for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const reply = await record.get!({ 'if-none-match': ifNoneMatch });
        expect({ ifNoneMatch, status: reply.status, body: reply.body }).toEqual({ ifNoneMatch, status: 304, body: '' });
        expect(reply.headers.etag).toBe(etag);
        expect(reply.headers['cache-control']).toBe('no-store');
      }
      expect((await record.get!({ 'if-none-match': FOREIGN_TAG })).status).toBe(200);
    });

    itWhen(!lacks('get') && Boolean(changes))(
      'when the record changes, then its ETag does, and the old one gets the record again',
      async () => {
        const record = await resource.arrange();
        const before = etagOf(await record.get!({}));
        await change(record, 1);
        const after = await record.get!({});
        expect(etagOf(after)).not.toBe(before);
        const again = await record.get!({ 'if-none-match': before });
        expect(again.status).toBe(200);
        expect(JSON.parse(again.body)).toEqual(JSON.parse(after.body));
        expect(etagOf(again)).toBe(etagOf(after));
      },
    );

    itWhen(!lacks('patch'))('when a PATCH carries a stale If-Match, then it is a 412 and nothing changes', async () => {
      const record = await resource.arrange();
      const stale = etagOf(await record.patch!({}, 1));
      expect((await record.patch!({}, 2)).status).toBe(200);
      const before = await record.state();
      for (const ifMatch of [stale, FOREIGN_TAG, `W/${stale}`]) expectPreconditionFailed(await record.patch!({ 'if-match': ifMatch }, 3));
      expect(await record.state()).toEqual(before);
    });

    itWhen(!lacks('patch'))('when a PATCH carries the current If-Match, then it applies and answers the new ETag', async () => {
      const record = await resource.arrange();
      const current = etagOf(record.get ? await record.get({}) : await record.patch!({}, 1));
      const before = await record.state();
      const patched = await record.patch!({ 'if-match': `"other", ${current}` }, 2);
      expect(patched.status).toBe(200);
      expect(etagOf(patched)).not.toBe(current);
      expect(await record.state()).not.toEqual(before);
      if (record.get) expect(etagOf(await record.get({}))).toBe(etagOf(patched));
      expect((await record.patch!({ 'if-match': '*' }, 3)).status).toBe(200);
    });

    itWhen(!lacks('remove'))('when a DELETE carries a stale If-Match, then it is a 412 and the record stays', async () => {
      const record = await resource.arrange();
      // A tag the record had (where the resource can show one and change), else one it never had.
      let stale = FOREIGN_TAG;
      let current = '*';
      if (record.get && changes) {
        stale = etagOf(await record.get({}));
        await change(record, 1);
        current = etagOf(await record.get({}));
      } else if (record.patch) {
        stale = etagOf(await record.patch({}, 1));
        current = etagOf(await record.patch({}, 2));
      }
      const before = await record.state();
      expectPreconditionFailed(await record.remove!({ 'if-match': stale }));
      expect(await record.state()).toEqual(before);
      expect((await record.remove!({ 'if-match': current })).status).toBe(200);
    });

    itWhen(!lacks('patch'))('when 10 PATCHes with one If-Match arrive at once, then exactly one applies', async () => {
      const record = await resource.arrange();
      const current = etagOf(record.get ? await record.get({}) : await record.patch!({}, 0));
      const replies = await Promise.all(Array.from({ length: 10 }, (_, n) => record.patch!({ 'if-match': current }, n + 1)));
      expect(tally(replies)).toEqual({ '200': 1, '412': 9 });
      for (const reply of replies.filter((each) => each.status === 412)) expectPreconditionFailed(reply);
      const applied = replies.find((reply) => reply.status === 200)!;
      if (record.get) expect(etagOf(await record.get({}))).toBe(etagOf(applied));
    });
  });
}
