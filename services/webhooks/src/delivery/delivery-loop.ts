import { ClaimingLoop } from '@app/service-kit';
import { claimDueDeliveries, type ClaimedDelivery } from '../db/delivery.repository.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { deliverOnce, type DeliverySettings } from '../use-cases/deliver.use-case.js';
import type { WebhookSender } from './sender.js';
import { SuccessRecorder } from './success-recorder.js';

export interface DeliveryLoopSettings extends DeliverySettings {
  /** Attempts in flight at once in this replica. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint. */
  endpointConcurrency: number;
  pollMs: number;
  timeoutMs: number;
}

/**
 * Polls for due deliveries and sends up to `concurrency` at once, at most `endpointConcurrency` per endpoint, so one
 * slow receiver holds only its own share and never delays the others. New deliveries and retries wake it at once.
 * A claim's lease outlasts an attempt (its timeout) and its recording, with a margin. Successes are recorded in
 * batches (SuccessRecorder): under load, one statement and one commit for many deliveries.
 */
export class DeliveryLoop extends ClaimingLoop<ClaimedDelivery> {
  constructor(
    ctx: UseCaseContext,
    private readonly sender: WebhookSender,
    settings: DeliveryLoopSettings,
  ) {
    const recorder = new SuccessRecorder(ctx.pool);
    super({
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      log: ctx.log,
      what: 'webhook deliveries',
      claim: (limit) => claimDueDeliveries(ctx.pool, limit, settings.endpointConcurrency, settings.timeoutMs * 2 + 10_000),
      work: (claim, stopping) => deliverOnce(ctx, sender, recorder, settings, claim, stopping),
    });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.sender.close();
  }
}
