/** When an event whose handling failed for a transient reason is delivered again: doubling waits, capped. */
export interface RetrySchedule {
  /** The wait after the first failed delivery. */
  initialMs: number;
  /** The longest wait; reached after a few failures and kept from then on, for as long as the failure lasts. */
  maxMs: number;
}

/** The wait before delivery `deliveryCount + 1`, after `deliveryCount` failed ones (1-based). */
export function retryDelayMs(schedule: RetrySchedule, deliveryCount: number): number {
  const doublings = Math.min(Math.max(deliveryCount - 1, 0), 30); // 2^30 outgrows any cap; no Infinity
  return Math.min(schedule.maxMs, schedule.initialMs * 2 ** doublings);
}
