import { PollingLoop, type BackgroundTask } from '@app/service-kit';
import { claimDueDeliveries } from '../db/delivery.repository.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { deliverOnce, type DeliverySettings } from '../use-cases/deliver.use-case.js';
import type { WebhookSender } from './sender.js';

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
 */
export class DeliveryLoop implements BackgroundTask {
  private readonly loop = new PollingLoop(async () => {
    await this.tick();
    return this.settings.pollMs;
  });
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: UseCaseContext,
    private readonly sender: WebhookSender,
    private readonly settings: DeliveryLoopSettings,
  ) {}

  async start(): Promise<void> {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
    await this.sender.close();
  }

  /** The lease outlasts an attempt (its timeout) and its recording, with a margin. */
  private get leaseMs(): number {
    return this.settings.timeoutMs * 2 + 10_000;
  }

  private async tick(): Promise<void> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (this.stopping.signal.aborted || free <= 0) return;
    let claims;
    try {
      claims = await claimDueDeliveries(this.ctx.pool, free, this.settings.endpointConcurrency, this.leaseMs);
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'could not claim webhook deliveries; will retry');
      return;
    }
    for (const claim of claims) {
      const run = deliverOnce(this.ctx, this.sender, this.settings, claim, this.stopping.signal)
        .catch((error: unknown) => this.ctx.log.error({ err: error, delivery_id: claim.id }, 'webhook attempt could not be recorded'))
        .finally(() => {
          this.inFlight.delete(claim.id);
          this.wake();
        });
      this.inFlight.set(claim.id, run);
    }
  }
}
