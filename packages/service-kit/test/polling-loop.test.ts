import { describe, expect, it } from 'vitest';
import { PollingLoop } from '../src/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PollingLoop', () => {
  it('when woken during a run, then it runs again right after, never two at once', async () => {
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const loop = new PollingLoop(async () => {
      runs += 1;
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      await sleep(50);
      concurrent -= 1;
      return 60_000; // without a wake, no second run within the test
    });
    loop.start();
    await sleep(10);
    loop.wake();
    loop.wake();
    await sleep(150);
    await loop.stop();
    expect(runs).toBe(2);
    expect(maxConcurrent).toBe(1);
  });

  it('when a run fails, then the loop keeps going; once stopped, nothing runs', async () => {
    let runs = 0;
    const loop = new PollingLoop(async () => {
      runs += 1;
      if (runs === 1) throw new Error('boom');
      return 10;
    });
    loop.start();
    await sleep(1100);
    await loop.stop();
    const stoppedAt = runs;
    expect(stoppedAt).toBeGreaterThan(1);
    loop.wake();
    await sleep(50);
    expect(runs).toBe(stoppedAt);
  });
});
