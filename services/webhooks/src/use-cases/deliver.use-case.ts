import { withTransaction } from '@app/service-kit';
import { Webhook } from 'standardwebhooks';
import { disableEndpoint, endpointFailed, recordAttempt, type AttemptRecord, type ClaimedDelivery } from '../db/delivery.repository.js';
import type { WebhookSender } from '../clients/webhook-sender.client.js';
import type { SuccessRecorder } from '../workers/success-recorder.js';
import { disabledReason, nextAttemptAt, shouldDisable } from '../domain/retry-policy.js';
import { signingSecrets } from '../domain/secret.js';
import type { UseCaseContext } from './context.js';

export interface DeliverySettings {
  retryScheduleMs: readonly number[];
  disableAfterMs: number;
}

/**
 * Standard Webhooks headers of one attempt: webhook-id is the event id (the same on every retry), the timestamp
 * this attempt's, and one signature per signing secret (two during a rotation), separated by a space.
 */
function signedHeaders(claim: ClaimedDelivery, at: Date): Record<string, string> {
  const signature = signingSecrets(claim, at)
    .map((secret) => new Webhook(secret).sign(claim.eventId, at, claim.body))
    .join(' ');
  return {
    'content-type': 'application/json',
    'webhook-id': claim.eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * One attempt of a claimed delivery: sign, send, record. A failure is retried on the schedule, then marked failed;
 * an endpoint that has failed for `disableAfterMs` without one success is disabled in the same transaction.
 */
export async function deliverOnce(
  ctx: UseCaseContext,
  sender: WebhookSender,
  recorder: SuccessRecorder,
  settings: DeliverySettings,
  claim: ClaimedDelivery,
  stopping: AbortSignal,
): Promise<void> {
  const at = ctx.now();
  const outcome = await sender.send(claim.url, signedHeaders(claim, at), claim.body, stopping);
  if (stopping.aborted && !outcome.ok) return; // shutting down: the lease runs out and the attempt is made again
  const attempts = claim.attempts + 1;
  const next = outcome.ok ? null : nextAttemptAt(settings.retryScheduleMs, attempts, at);
  const status = outcome.ok ? 'succeeded' : next ? 'pending' : 'failed';
  const recorded =
    outcome.ok && outcome.status !== null
      ? await recorder.record({ claim, at, responseStatus: outcome.status, durationMs: outcome.durationMs })
      : await recordFailure(ctx, settings, claim, {
          at,
          responseStatus: outcome.status,
          error: outcome.error,
          durationMs: outcome.durationMs,
          status,
          nextAttemptAt: next,
        });
  // Counted once committed; an attempt whose lease was lost is the other replica's to count.
  if (recorded) ctx.attemptOutcomes.inc({ outcome: status === 'pending' ? 'retry' : status });
}

/** A failed attempt, and the endpoint's run of failures: disabled in the same transaction once it lasted `disableAfterMs`. */
function recordFailure(ctx: UseCaseContext, settings: DeliverySettings, claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
  return withTransaction(ctx.pool, async (tx) => {
    if (!(await recordAttempt(tx, claim, attempt))) return false;
    const failingSince = await endpointFailed(tx, claim.endpointId, attempt.at);
    if (failingSince && shouldDisable(failingSince, attempt.at, settings.disableAfterMs)) {
      await disableEndpoint(tx, claim.endpointId, disabledReason(settings.disableAfterMs));
      ctx.log.warn({ endpoint_id: claim.endpointId }, 'webhook endpoint disabled: every delivery failed');
    }
    return true;
  });
}
