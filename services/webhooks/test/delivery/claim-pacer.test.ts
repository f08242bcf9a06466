import { describe, expect, it } from 'vitest';
import { ClaimPacer } from '../../src/workers/claim-pacer.js';
import { deliveryPacer } from '../../src/workers/delivery.worker.js';

/** `count` claims of `ms` each, one every 10 ms from `from`; returns the time after the last. */
function claims(pacer: ClaimPacer, count: number, ms: number, from: number, writing = false): number {
  let now = from;
  for (let i = 0; i < count; i++, now += 10) {
    if (writing) pacer.noteWrite(now);
    pacer.observe(ms, now);
  }
  return now;
}

describe('ClaimPacer', () => {
  it('when claims stay as fast as when quiet, then the limit stays at its maximum', () => {
    const pacer = new ClaimPacer(32);
    claims(pacer, 100, 1, 0, true);
    expect(pacer.limit).toBe(32);
  });

  it('when claims slow down while bookings are being written, then the limit shrinks to the minimum, and grows back once they are fast', () => {
    const pacer = new ClaimPacer(32);
    let now = claims(pacer, 20, 1, 0);
    now = claims(pacer, 40, 8, now, true);
    expect(pacer.limit).toBe(1);
    claims(pacer, 10, 1, now, true);
    expect(pacer.limit).toBeGreaterThan(1);
    expect(pacer.limit).toBeLessThan(32);
  });

  it('when the delivery loop’s pacer meets slow claims while bookings are being written, then it keeps one endpoint’s share in flight', () => {
    const pacer = deliveryPacer({ concurrency: 32, endpointConcurrency: 4 });
    let now = claims(pacer, 20, 1, 0);
    now = claims(pacer, 40, 8, now, true);
    expect(pacer.limit).toBe(4);
    claims(pacer, 40, 8, now, true);
    expect(pacer.limit).toBe(4);
  });

  it('when an endpoint may have more attempts than the loop, then the loop’s pacer never exceeds its own maximum', () => {
    const pacer = deliveryPacer({ concurrency: 8, endpointConcurrency: 50 });
    const now = claims(pacer, 20, 1, 0);
    claims(pacer, 40, 8, now, true);
    expect(pacer.limit).toBe(8);
  });

  it('when claims are slow but nothing is being written (a backlog draining), then the limit stays at its maximum', () => {
    const pacer = new ClaimPacer(32);
    let now = claims(pacer, 20, 1, 0, true);
    now += 2000; // the last booking was written two seconds ago
    claims(pacer, 40, 8, now);
    expect(pacer.limit).toBe(32);
  });

  it('when one claim is slow among fast ones, then the limit dips by a quarter and is back within 20 claims', () => {
    const pacer = new ClaimPacer(32);
    let now = claims(pacer, 20, 1, 0, true);
    now = claims(pacer, 1, 8, now, true);
    expect(pacer.limit).toBeGreaterThanOrEqual(24);
    claims(pacer, 20, 1, now, true);
    expect(pacer.limit).toBe(32);
  });

  it('when sub-millisecond claims vary several-fold, then that is not load (the margin)', () => {
    const pacer = new ClaimPacer(32);
    const now = claims(pacer, 20, 0.1, 0, true);
    claims(pacer, 40, 0.6, now, true);
    expect(pacer.limit).toBe(32);
  });

  it('when the load outlasts the window, then its latency becomes the quiet one and the limit opens again', () => {
    const pacer = new ClaimPacer(32, { windowMs: 1000 });
    let now = claims(pacer, 20, 1, 0, true);
    now = claims(pacer, 40, 8, now, true);
    expect(pacer.limit).toBe(1);
    claims(pacer, 150, 8, now, true); // 1.5 s more of the same load: the window holds only slow claims now
    expect(pacer.limit).toBe(32);
  });
});
