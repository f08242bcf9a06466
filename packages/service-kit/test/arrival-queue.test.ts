import { describe, expect, it } from 'vitest';
import { ArrivalQueue } from '../src/index.js';

const GATHER_MS = 10_000; // far past the test's timeout: only the queue filling, a release or an end cuts it short

describe('ArrivalQueue', () => {
  it('when gathering and the queue fills, then takeAll answers at once with every message', async () => {
    const queue = new ArrivalQueue<number>(3);
    const taken = queue.takeAll(() => GATHER_MS);
    await queue.push(1);
    await queue.push(2);
    await queue.push(3);
    expect(await taken).toEqual([1, 2, 3]);
  });

  it('when gathering and released, then takeAll answers with what has come; a later push waits for the next take', async () => {
    const queue = new ArrivalQueue<number>();
    const taken = queue.takeAll(() => GATHER_MS);
    await queue.push(1);
    await new Promise((resolve) => setImmediate(resolve));
    await queue.push(2);
    queue.release();
    expect(await taken).toEqual([1, 2]);
    await queue.push(3);
    expect(await queue.takeAll()).toEqual([3]);
  });

  it('when gathering and the queue ends, then takeAll answers with what has come, and then with none', async () => {
    const queue = new ArrivalQueue<number>();
    const taken = queue.takeAll(() => GATHER_MS);
    await queue.push(1);
    await new Promise((resolve) => setImmediate(resolve));
    queue.end();
    expect(await taken).toEqual([1]);
    expect(await queue.takeAll()).toEqual([]);
  });
});
