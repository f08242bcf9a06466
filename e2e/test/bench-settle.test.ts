import { describe, expect, it } from 'vitest';
import { settle } from '../../bench/lib/settle.mjs';

/**
 * `npm run bench` waits before each run until the stack has worked off what the run before left (settle.mjs). What
 * it must get right: it waits while the stack is busy, stops at the first quiet second, and gives up rather than hang.
 * The stack's CPU is simulated here (`cpuMs`): the real reading is /proc, as the bench's CPU table reads it.
 */
describe('the bench’s wait for a settled stack', () => {
  /** CPU readings of a stack that spends `busyShare` of a core for `busyMs` after the start, then nothing. */
  function stack(busyShare: number, busyMs: number) {
    const startedAt = Date.now();
    return () => Math.min(Date.now() - startedAt, busyMs) * busyShare;
  }

  it('when the stack is busy for 2.5 s, then it waits until the first quiet second after it', async () => {
    const result = await settle({ database: 'unused', cpuMs: stack(0.9, 2500) });
    expect(result.settled).toBe(true);
    expect(result.waited_s).toBeGreaterThanOrEqual(3);
    expect(result.cpu_share).toBeLessThan(0.25);
  });

  it('when the stack is quiet, then one second of reading is all it waits', async () => {
    const result = await settle({ database: 'unused', cpuMs: stack(0, 0) });
    expect(result).toMatchObject({ settled: true, cpu_share: 0 });
    expect(result.waited_s).toBeLessThan(2.5);
  });

  it('when the stack never quiets down, then it gives up at its timeout and says so', async () => {
    const result = await settle({ database: 'unused', cpuMs: stack(1.5, Infinity), timeoutMs: 2000 });
    expect(result.settled).toBe(false);
    expect(result.cpu_share).toBeGreaterThan(1);
    expect(result.waited_s).toBeLessThan(4);
  });
});
