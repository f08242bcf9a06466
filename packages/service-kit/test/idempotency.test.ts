import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyDigest } from '../src/http/idempotency/sealed-response.js';
import { organizationHeaders } from '@app/service-testing';
import { keyedApp, ORGANIZATION } from './support/keyed-app.js';

const REPLAYED = 'idempotent-replayed';

describe('Idempotency-Key on a creating route of buildService', () => {
  let kit: Awaited<ReturnType<typeof keyedApp>>;
  beforeAll(async () => {
    kit = await keyedApp();
  });
  afterAll(() => kit.close());

  const fresh = () => ({ title: `t-${randomUUID()}`, key: `k-${randomUUID()}` });
  const recordOf = async (key: string) =>
    (
      await kit.schema.pool.query<{ status_code: number | null }>('SELECT status_code FROM idempotency_records WHERE key = $1', [
        keyDigest(key),
      ])
    ).rows;

  it('when a request has no key, then nothing is recorded and every request runs', async () => {
    const { title } = fresh();
    const records = async () => (await kit.schema.pool.query('SELECT 1 FROM idempotency_records')).rowCount;
    const before = await records();
    await kit.post(title, undefined);
    await kit.post(title, undefined);
    expect(kit.runsOf(title)).toBe(2);
    expect(await records()).toBe(before);
  });

  it('when the first response is a 5xx, then it is not kept: the retry with the key runs again and is then replayed', async () => {
    const { title, key } = fresh();
    kit.plan(title, 'unavailable');
    expect((await kit.post(title, key)).status).toBe(503);
    expect(await recordOf(key)).toEqual([]);
    const retried = await kit.post(title, key);
    const replayed = await kit.post(title, key);
    expect([retried.status, retried.headers[REPLAYED]]).toEqual([201, undefined]);
    expect([replayed.status, replayed.headers[REPLAYED], replayed.body]).toEqual([201, 'true', retried.body]);
    expect(kit.runsOf(title)).toBe(2);
  });

  it.each([
    ['the handler fails unexpectedly', 'crash', 500],
    ['the first response refuses the caller', 'unauthorized', 401],
  ] as const)('when %s (%s → %i), then the key is let go and a retry runs afresh', async (_what, plan, status) => {
    const { title, key } = fresh();
    kit.plan(title, plan);
    expect((await kit.post(title, key)).status).toBe(status);
    expect((await kit.post(title, key)).status).toBe(201);
    expect(kit.runsOf(title)).toBe(2);
  });

  it('when the first response is a refusal the request decided (404), then that refusal is replayed', async () => {
    const { title, key } = fresh();
    kit.plan(title, 'not-found');
    const refused = await kit.post(title, key);
    const replayed = await kit.post(title, key);
    expect(refused.status).toBe(404);
    expect([replayed.status, replayed.headers[REPLAYED], replayed.body]).toEqual([404, 'true', refused.body]);
    expect(kit.runsOf(title)).toBe(1);
  });

  it('when a duplicate arrives while the first request runs, then it waits and replays the first response', async () => {
    const { title, key } = fresh();
    kit.plan(title, 'slow');
    const [first, duplicate] = await Promise.all([kit.post(title, key), sleepThen(50, () => kit.post(title, key))]);
    expect([first.status, duplicate.status, duplicate.headers[REPLAYED]]).toEqual([201, 201, 'true']);
    expect(duplicate.body).toEqual(first.body);
    expect(kit.runsOf(title)).toBe(1);
  });

  it('when the first request fails on the server while a duplicate waits, then the duplicate runs in its place', async () => {
    const { title, key } = fresh();
    kit.plan(title, 'slow-unavailable');
    const [first, duplicate] = await Promise.all([kit.post(title, key), sleepThen(20, () => kit.post(title, key))]);
    expect([first.status, duplicate.status, duplicate.headers[REPLAYED]]).toEqual([503, 201, undefined]);
    expect(kit.runsOf(title)).toBe(2);
  });

  it('when the same key is sent to another route, then it is a 409 IDEMPOTENCY_KEY_REUSED naming the request', async () => {
    const { title, key } = fresh();
    await kit.post(title, key);
    const other = await kit.post(title, key, { url: '/others' });
    expect([other.status, other.body]).toEqual([
      409,
      { error: 'This Idempotency-Key was already used for a different request', code: 'IDEMPOTENCY_KEY_REUSED' },
    ]);
    expect(kit.runsOf(title)).toBe(1);
  });

  it('when the holder of a key crashed mid-request, then its reservation lapses and a retry takes the key', async () => {
    const { title, key } = fresh();
    await kit.store.reserve({ scope: ORGANIZATION, key, target: 'POST /things', requestHash: null });
    await kit.schema.pool.query(`UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE key = $1`, [
      keyDigest(key),
    ]);
    const retried = await kit.post(title, key);
    expect([retried.status, retried.headers[REPLAYED]]).toEqual([201, undefined]);
    expect(await recordOf(key)).toEqual([{ status_code: 201 }]);
  });

  it('when the key is malformed, then it is a 400 naming the header and nothing runs', async () => {
    const { title } = fresh();
    const reply = await kit.post(title, 'k'.repeat(256));
    expect([reply.status, reply.body.code, reply.body.error]).toEqual([
      400,
      'VALIDATION_ERROR',
      'idempotency-key must be at most 255 characters',
    ]);
    expect(kit.runsOf(title)).toBe(0);
  });

  it('when a request carries no organization and no bearer token, then it is a 401 before anything is reserved', async () => {
    const { title, key } = fresh();
    const reply = await kit.post(title, key, { headers: {} });
    expect(reply.status).toBe(401);
    expect(await recordOf(key)).toEqual([]);
  });

  it('when two organizations use one key, then the key is theirs each', async () => {
    const { title, key } = fresh();
    const a = await kit.post(title, key, { headers: organizationHeaders() });
    const b = await kit.post(title, key, { headers: organizationHeaders() });
    expect([a.headers[REPLAYED], b.headers[REPLAYED]]).toEqual([undefined, undefined]);
    expect(kit.runsOf(title)).toBe(2);
  });
});

async function sleepThen<T>(ms: number, then: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return then();
}
