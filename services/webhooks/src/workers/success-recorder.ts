import type { Queryable } from '@app/service-kit';
import { recordSuccesses, type Success } from '../db/delivery.repository.js';

interface Waiting {
  success: Success;
  settle: (recorded: boolean | Error) => void;
}

/**
 * Records successful attempts in batches: what succeeded while the previous batch was being written goes in the next
 * one, so under load one statement and one commit serve many deliveries, and alone a success is written at once.
 * Each caller learns whether its own was recorded (false: the lease was lost).
 */
export class SuccessRecorder {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Queryable) {}

  record(success: Success): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ success, settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)) });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const recorded = await recordSuccesses(
          this.db,
          batch.map((entry) => entry.success),
        );
        for (const entry of batch) entry.settle(recorded.has(entry.success.claim.id));
      } catch (error) {
        // The leases stay, run out, and the deliveries are sent again (at least once): each caller logs it.
        for (const entry of batch) entry.settle(error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.writing = false;
  }
}
