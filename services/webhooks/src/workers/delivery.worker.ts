import { ClaimingLoop } from '@app/service-kit';
import { claimDueDeliveries, type ClaimedDelivery } from '../db/delivery.repository.js';
import { ClaimPacer } from './claim-pacer.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { deliverOnce, type DeliverySettings } from '../use-cases/deliver.use-case.js';
import type { WebhookSender } from '../clients/webhook-sender.client.js';
import { SuccessRecorder } from './success-recorder.js';

export interface DeliveryLoopSettings extends DeliverySettings {
  /** Attempts in flight at once in this replica, at most (fewer while the database is busy: ClaimPacer). */
  concurrency: number;
  /** Attempts in flight at once to one endpoint. */
  endpointConcurrency: number;
  pollMs: number;
  timeoutMs: number;
}

/**
 * The loop's pacer: at most `concurrency` attempts, and never fewer than one endpoint's share. At 200 bookings/s to
 * one endpoint, a third of a 2-core machine's booking rate, a floor of one attempt let deliveries fall 3.2–3.7 s behind
 * (p50: each claim fetched a single delivery, so each cost a claim), four kept them 21–43 ms behind, and the rate of a
 * saturating burst with 5 endpoints stayed within the runs' noise (bench/scenarios/webhooks.mjs, 2026-11-27).
 */
export function deliveryPacer(settings: Pick<DeliveryLoopSettings, 'concurrency' | 'endpointConcurrency'>): ClaimPacer {
  return new ClaimPacer(settings.concurrency, { min: Math.min(settings.concurrency, settings.endpointConcurrency) });
}

/** An attempt waiting on its receiver this long is stalled: it costs neither CPU nor Postgres meanwhile. */
const STALLED_MS = 1000;

/**
 * Polls for due deliveries and sends up to `concurrency` at once, at most `endpointConcurrency` per endpoint, so one
 * slow receiver holds only its own share and never delays the others. New deliveries and retries wake it at once.
 * A claim's lease outlasts an attempt (its timeout) and its recording, with a margin. Successes are recorded in
 * batches (SuccessRecorder): under load, one statement and one commit for many deliveries. While bookings are being
 * written and claims run slow, fewer attempts are made at once (ClaimPacer), so a burst of bookings is not slowed by
 * its own deliveries; stalled attempts do not count against that limit.
 */
export class DeliveryLoop extends ClaimingLoop<ClaimedDelivery> {
  private readonly pacer: ClaimPacer;

  constructor(
    ctx: UseCaseContext,
    private readonly sender: WebhookSender,
    settings: DeliveryLoopSettings,
  ) {
    const recorder = new SuccessRecorder(ctx.pool);
    const pacer = deliveryPacer(settings);
    // When each attempt began: a stalled one no longer counts against the pacer's limit, so a slow receiver cannot hold
    // the few attempts a busy moment allows.
    const started = new Map<string, number>();
    const stalled = (): number => [...started.values()].filter((at) => performance.now() - at > STALLED_MS).length;
    super({
      concurrency: () => Math.min(settings.concurrency, pacer.limit + stalled()),
      pollMs: settings.pollMs,
      log: ctx.log,
      what: 'webhook deliveries',
      claim: async (limit) => {
        const claiming = performance.now();
        const claims = await claimDueDeliveries(ctx.pool, limit, settings.endpointConcurrency, settings.timeoutMs * 2 + 10_000);
        pacer.observe(performance.now() - claiming, Date.now());
        return claims;
      },
      work: (claim, stopping) => {
        started.set(claim.id, performance.now());
        return deliverOnce(ctx, sender, recorder, settings, claim, stopping).finally(() => started.delete(claim.id));
      },
    });
    this.pacer = pacer;
  }

  /** New deliveries were written (a fan-out, a test, a manual retry): claim them now, and tell the pacer. */
  deliveriesWritten(): void {
    this.pacer.noteWrite(Date.now());
    this.wake();
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.sender.close();
  }
}
