import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

const REPLAYED = 'idempotent-replayed';

/** A response as the shared idempotency tests read it. */
export interface KeyedReply {
  status: number;
  headers: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** A caller of a creating route: an organization (or, for the admin API, an admin token) with what the route needs. */
export interface IdempotentCaller {
  /** Sends the creating request with `key`: `'same'` always sends one body, `'other'` another valid one. */
  create(key: string, body?: 'same' | 'other'): Promise<KeyedReply>;
  /** How many records this caller's creating requests have made (through the list endpoint where there is one). */
  count(): Promise<number>;
}

/** One creating route family of a service, for describeIdempotentCreates. */
interface IdempotentRoute {
  name: string;
  /** A new caller with whatever the route needs (a parent record); each call gives one of its own. */
  arrange(): Promise<IdempotentCaller>;
}

/** `app.inject`'s response as a KeyedReply. */
export function keyedReply(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }): KeyedReply {
  return { status: response.statusCode, headers: response.headers, body: response.json() as Record<string, unknown> };
}

/** What `app.inject` needs: a service app, or a running service's `app`. */
interface Injectable {
  inject(options: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; payload?: never }): PromiseLike<{
    statusCode: number;
    headers: Record<string, unknown>;
    json(): unknown;
  }>;
}

/** POSTs `payload` (JSON, or FormData for an upload) to a service with `headers` and the Idempotency-Key. */
export async function postWithKey(
  app: Injectable,
  url: string,
  headers: Record<string, string>,
  key: string,
  payload: unknown,
): Promise<KeyedReply> {
  return keyedReply(await app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': key }, payload: payload as never }));
}

/** How many records a list endpoint of a service holds: `meta.total`, or the length of an unpaged list. */
export async function listedCount(app: Injectable, url: string, headers: Record<string, string>): Promise<number> {
  const { status, body } = keyedReply(await app.inject({ method: 'GET', url, headers }));
  const total = (body.meta as { total?: unknown } | undefined)?.total;
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(body)}`);
  if (typeof total === 'number') return total;
  if (Array.isArray(body.data)) return body.data.length;
  throw new Error(`GET ${url} is not a list: ${JSON.stringify(body)}`);
}

/** Replies as `status CODE` (or just the status), counted: a failed concurrency assertion shows what came back. */
function tally(replies: KeyedReply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    const key = typeof reply.body.code === 'string' ? `${reply.status} ${reply.body.code}` : String(reply.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * API.md's Idempotency-Key contract, the same for every route that creates something: replay, reuse with another
 * body, keys per caller, and concurrent duplicates. Each service runs it on its own routes (table-driven).
 */
export function describeIdempotentCreates(routes: IdempotentRoute[]): void {
  describe.each(routes)('$name with an Idempotency-Key', (route) => {
    it('when the same key comes with the same body, then the first response is replayed and nothing new is created', async () => {
      const caller = await route.arrange();
      const key = `key-${randomUUID()}`;
      const first = await caller.create(key);
      const second = await caller.create(key);
      expect(first.status).toBe(201);
      expect(first.headers[REPLAYED]).toBeUndefined();
      expect(second.status).toBe(201);
      expect(second.headers[REPLAYED]).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(await caller.count()).toBe(1);
    });

    it('when the same key comes with another body, then it is a 409 IDEMPOTENCY_KEY_REUSED and nothing new is created', async () => {
      const caller = await route.arrange();
      const key = `key-${randomUUID()}`;
      expect((await caller.create(key)).status).toBe(201);
      const reused = await caller.create(key, 'other');
      expect({ status: reused.status, body: reused.body }).toEqual({
        status: 409,
        body: { error: 'This Idempotency-Key was already used with a different request body', code: 'IDEMPOTENCY_KEY_REUSED' },
      });
      expect(await caller.count()).toBe(1);
    });

    it('when two callers use the same key, then each gets a record of its own and replays only its own', async () => {
      const [a, b] = [await route.arrange(), await route.arrange()];
      const key = `key-${randomUUID()}`;
      const [createdA, createdB] = [await a.create(key), await b.create(key)];
      expect([createdA.status, createdB.status]).toEqual([201, 201]);
      expect([createdA.headers[REPLAYED], createdB.headers[REPLAYED]]).toEqual([undefined, undefined]);
      expect(createdA.body).not.toEqual(createdB.body);
      const [replayA, replayB] = [await a.create(key), await b.create(key)];
      expect([replayA.body, replayB.body]).toEqual([createdA.body, createdB.body]);
      expect([replayA.headers[REPLAYED], replayB.headers[REPLAYED]]).toEqual(['true', 'true']);
      expect([await a.count(), await b.count()]).toEqual([1, 1]);
    });

    it('when 20 identical requests with one key arrive at once, then exactly one record is created and every reply is its response', async () => {
      const caller = await route.arrange();
      const key = `key-${randomUUID()}`;
      const replies = await Promise.all(Array.from({ length: 20 }, () => caller.create(key)));
      expect(tally(replies)).toEqual({ '201': 20 });
      expect(new Set(replies.map((reply) => JSON.stringify(reply.body))).size).toBe(1);
      expect(replies.filter((reply) => reply.headers[REPLAYED] === 'true')).toHaveLength(19);
      expect(await caller.count()).toBe(1);
    });
  });
}
