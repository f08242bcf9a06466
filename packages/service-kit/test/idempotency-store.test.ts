import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, IdempotencyStore, requestHash } from '../src/index.js';
import { RetentionSweeper } from '../src/outbox/retention-sweeper.js';
import { claimKey } from '../src/http/idempotency/claim-key.js';
import { kitSchema, silentLog } from './support/kit-env.js';

describe('requestHash', () => {
  it('when two bodies differ only in key order, then they hash equally', () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  it('when a value differs, then the hash differs', () => {
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });

  it('when a body holds dates and undefined fields, then dates are ISO strings and undefined is left out', () => {
    expect(canonicalJson({ t: new Date('2030-01-01T00:00:00Z'), u: undefined, n: null })).toBe('{"n":null,"t":"2030-01-01T00:00:00.000Z"}');
  });
});

describe('idempotency_records', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let store: IdempotencyStore;
  beforeAll(async () => {
    schema = await kitSchema();
    store = new IdempotencyStore(schema.pool);
  });
  afterAll(() => schema.close());

  const keyed = () => ({ scope: randomUUID(), key: `k-${randomUUID()}`, target: 'POST /things', requestHash: 'h' });
  const age = (request: { scope: string }, column: 'created_at' | 'locked_until', interval: string) =>
    schema.pool.query(`UPDATE idempotency_records SET ${column} = now() - interval '${interval}' WHERE scope = $1`, [request.scope]);

  it('when a duplicate waits longer than its bound for a live reservation, then it gets a retryable 409 CONFLICT', async () => {
    const request = keyed();
    expect(await store.reserve(request)).not.toBeNull();
    const waiting = claimKey(store, request, { maxMs: 100, firstPauseMs: 10, maxPauseMs: 20 });
    await expect(waiting).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: 'Another request with this Idempotency-Key is in progress; retry it',
    });
  });

  it('when a duplicate with another body finds the key in progress, then it is refused at once', async () => {
    const request = keyed();
    await store.reserve(request);
    await expect(claimKey(store, { ...request, requestHash: 'other' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('when a reservation is renewed, then it outlives its first lease', async () => {
    const request = keyed();
    const reservation = await store.reserve(request);
    if (!reservation) throw new Error('not reserved');
    await age(request, 'locked_until', '1 second');
    await store.renew(reservation);
    expect(await store.reserve(request)).toBeNull();
  });

  it('when a response was stored more than 24 hours ago, then the key is free again', async () => {
    const request = keyed();
    const reservation = await store.reserve(request);
    if (!reservation) throw new Error('not reserved');
    await store.complete(reservation, 'h', { statusCode: 201, body: '{}' });
    expect(await store.reserve(request)).toBeNull();
    await age(request, 'created_at', '25 hours');
    expect(await store.find(request)).toBeNull();
    expect(await store.reserve(request)).not.toBeNull();
  });

  it('when a first response is stored, then the table holds the key only as its digest and the body only sealed', async () => {
    const request = keyed();
    const reservation = await store.reserve(request);
    if (!reservation) throw new Error('not reserved');
    const body = '{"data":{"api_key":"sk_shown_once"}}';
    await store.complete(reservation, 'h', { statusCode: 201, body });
    const { rows } = await schema.pool.query<{ key: string; response_body: string }>(
      'SELECT key, response_body FROM idempotency_records WHERE scope = $1',
      [request.scope],
    );
    expect(rows[0]?.key).not.toContain(request.key);
    expect(rows[0]?.response_body).not.toContain('sk_shown_once');
    expect((await store.find(request))?.response).toEqual({ statusCode: 201, body });
    expect(await store.find({ ...request, scope: randomUUID() })).toBeNull();
  });

  it('when the sweeper runs, then records older than 24 hours are deleted and younger ones kept', async () => {
    const [old, young] = [keyed(), keyed()];
    for (const request of [old, young]) {
      const reservation = await store.reserve(request);
      if (reservation) await store.complete(reservation, 'h', { statusCode: 201, body: '{}' });
    }
    await age(old, 'created_at', '25 hours');
    await age(young, 'created_at', '23 hours');
    const retention = { outboxRetentionHours: 24, inboxRetentionHours: 192, batchSize: 1000, intervalMs: 60_000 };
    const swept = await new RetentionSweeper(schema.pool, retention, silentLog, store).sweep();
    expect(swept.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const { rows } = await schema.pool.query<{ scope: string }>('SELECT scope FROM idempotency_records WHERE scope = ANY($1)', [
      [old.scope, young.scope],
    ]);
    expect(rows.map((row) => row.scope)).toEqual([young.scope]);
  });
});
