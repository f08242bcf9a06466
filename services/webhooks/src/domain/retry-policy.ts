/** Error texts kept per attempt are cut to this many characters (a receiver's text must not grow the row). */
const MAX_ERROR_LENGTH = 500;

export function capError(error: string): string {
  return error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error;
}

/**
 * When to try again after failed attempt number `attempts` (1 = the first): the schedule's delay for it, counted
 * from that attempt; null once the schedule is used up (the delivery has failed).
 */
export function nextAttemptAt(schedule: readonly number[], attempts: number, attemptedAt: Date): Date | null {
  const delay = schedule[attempts - 1];
  return delay === undefined ? null : new Date(attemptedAt.getTime() + delay);
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function shouldDisable(failingSince: Date, now: Date, disableAfterMs: number): boolean {
  return now.getTime() - failingSince.getTime() >= disableAfterMs;
}

export function disabledReason(disableAfterMs: number): string {
  const hours = Math.round(disableAfterMs / 3_600_000);
  const span = hours >= 1 ? `${hours} h` : `${Math.round(disableAfterMs / 1000)} s`;
  return `Every delivery failed for ${span}`;
}
