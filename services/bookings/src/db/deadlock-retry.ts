import { isRetryableConflict } from '@app/service-kit';

/**
 * Runs a write again when Postgres aborted it as a deadlock victim (or failed its serialization). Writes on
 * one schedule no longer wait on each other in a circle (they queue on the schedule lock, schedule-lock.ts);
 * this stays for what the lock does not order — a booking row another transaction holds (a future job) —
 * where a rerun is safe: it is either applied or refused cleanly (23P01).
 */
export async function retryOnDeadlock<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
    }
  }
}
