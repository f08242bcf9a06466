import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRequest } from '@app/contracts';
import { AppError, type Bus } from '../src/index.js';
import { fakeResponder, type FakeResponder } from '@app/service-testing';
import { kitBus } from './support/kit-env.js';

const greet = defineRequest('kit.greeting.get', z.object({ name: z.string() }), z.object({ greeting: z.string() }));
const count = defineRequest('kit.count.get', z.object({}), z.object({ count: z.number().int() }));

/** The fake neighbour of service suites: a caller on its prefix sees it as it would see the real service. */
describe('fakeResponder', () => {
  let neighbours: FakeResponder;
  let caller: Bus;
  beforeAll(async () => {
    neighbours = await fakeResponder();
    caller = await kitBus({ prefix: neighbours.prefix, timeoutMs: 300 });
  });
  afterAll(async () => {
    await caller.close();
    await neighbours.stop();
  });
  beforeEach(() => neighbours.forget());

  it('when it answers a contract, then the caller gets the reply and the request is recorded with its request id', async () => {
    await neighbours.answer(greet, ({ name }) => ({ greeting: `hello ${name}` }));
    await expect(caller.request(greet, { name: 'ada' }, 'req-1')).resolves.toEqual({ greeting: 'hello ada' });
    expect(neighbours.received(greet)).toEqual([{ request: { name: 'ada' }, requestId: 'req-1' }]);
  });

  it('when the answer is changed, then the next request gets the new one', async () => {
    await neighbours.answer(greet, () => ({ greeting: 'first' }));
    await neighbours.answer(greet, () => ({ greeting: 'second' }));
    await expect(caller.request(greet, { name: 'ada' })).resolves.toEqual({ greeting: 'second' });
    expect(neighbours.received(greet)).toHaveLength(1);
  });

  it('when it fails a contract, then the caller gets that AppError', async () => {
    await neighbours.fail(greet, new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found or inactive'));
    const error = await caller.request(greet, { name: 'ada' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SCHEDULE_NOT_FOUND', status: 404, message: 'Schedule not found or inactive' });
  });

  it('when it is silent on a contract, then the caller times out with UPSTREAM_UNAVAILABLE, and the request was taken', async () => {
    await neighbours.silent(greet);
    const error = await caller.request(greet, { name: 'ada' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503 });
    expect(neighbours.received(greet)).toHaveLength(1);
  });

  it('when a contract was never set, then nobody answers it (UPSTREAM_UNAVAILABLE) and nothing is recorded', async () => {
    const error = await caller.request(count, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(neighbours.received(count)).toEqual([]);
  });

  it('when the answer does not fit the reply schema, then the caller gets INTERNAL (a fake cannot lie about the contract)', async () => {
    await neighbours.answer(count, () => ({ count: 1.5 }));
    const error = await caller.request(count, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL' });
  });
});
