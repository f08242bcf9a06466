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

  it('with a minimum gap, when woken again and again, then runs start that far apart; a wake-up after a quiet spell does not wait', async () => {
    const starts: number[] = [];
    const loop = new PollingLoop(
      async () => {
        starts.push(performance.now());
        return 60_000;
      },
      { minGapMs: 100 },
    );
    loop.start();
    await sleep(150); // a quiet spell after the first run
    const wokenAt = performance.now();
    for (let wakes = 0; wakes < 80; wakes += 1) {
      loop.wake();
      await sleep(5);
    }
    const elapsedMs = performance.now() - wokenAt;
    await loop.stop();

    expect((starts[1] ?? Number.POSITIVE_INFINITY) - wokenAt).toBeLessThan(50);
    // 80 wake-ups over ≥ 400 ms: without the gap, a run each.
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(starts.length).toBeLessThanOrEqual(2 + Math.ceil(elapsedMs / 100));
    const gaps = starts.slice(1).map((start, index) => start - (starts[index] ?? 0));
    // Timers fire on the loop's millisecond clock: up to a millisecond or so early by performance.now().
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(95);
  });
});
