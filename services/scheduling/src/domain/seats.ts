import type { Interval } from './availability.js';
import { MINUTE_MS } from './time.js';

/** A booking or an active hold: its interval and the seats it takes there. */
export interface SeatTaker extends Interval {
  seats: number;
}

/** A span of time over which the seats taken stay the same. */
interface Step extends Interval {
  taken: number;
}

/**
 * The seats taken at every instant, as a step function built once from the bookings and holds (widened by the
 * schedule's buffers, as one-seat blockers are): a slot's count is the most taken at any instant of it, not the sum of
 * what overlaps it, so two 1-seat bookings that follow each other inside a slot take 1 seat of it, not 2.
 */
export function seatSteps(takers: readonly SeatTaker[], bufferBefore: number, bufferAfter: number): Step[] {
  const before = bufferBefore * MINUTE_MS;
  const after = bufferAfter * MINUTE_MS;
  const edges: [at: number, change: number][] = [];
  for (const taker of takers) {
    if (taker.end <= taker.start) continue;
    edges.push([taker.start - before, taker.seats], [taker.end + after, -taker.seats]);
  }
  edges.sort((a, b) => a[0] - b[0]);
  const steps: Step[] = [];
  let taken = 0;
  for (let i = 0; i < edges.length;) {
    const at = edges[i]?.[0] ?? 0;
    for (; i < edges.length && edges[i]?.[0] === at; i += 1) taken += edges[i]?.[1] ?? 0;
    const next = edges[i]?.[0];
    if (next !== undefined && taken > 0) steps.push({ start: at, end: next, taken });
  }
  return steps;
}

/**
 * Answers "how many seats are taken at most over [start, end)?" for queries whose starts never decrease, with one
 * pointer over the steps: O(slots + steps) over a range, plus the few steps inside each slot.
 */
export class SeatCursor {
  private index = 0;

  constructor(private readonly steps: readonly Step[]) {}

  mostTaken(start: number, end: number): number {
    let step = this.steps[this.index];
    while (step && step.end <= start) {
      this.index += 1;
      step = this.steps[this.index];
    }
    let most = 0;
    for (let i = this.index; ; i += 1) {
      const inside = this.steps[i];
      if (!inside || inside.start >= end) return most;
      if (inside.taken > most) most = inside.taken;
    }
  }
}
