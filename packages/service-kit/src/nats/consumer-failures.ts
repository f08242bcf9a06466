import type { JsMsg } from '@nats-io/jetstream';
import { isTransientError } from '../transient-errors.js';
import type { Bus } from './bus.js';
import { sendToDeadLetters, type DeadLetterCause } from './dead-letter.js';
import { whyMalformed, type EventHandler, type ReceivedEvent } from './event-handler.js';
import { retryDelayMs, type RetrySchedule } from './retry-schedule.js';

/** What the consumer's failure paths need of it. */
export interface FailureContext {
  bus: Bus;
  durable: string;
  retry: RetrySchedule;
  onDeadLetter: ((consumer: string, type: string) => void) | undefined;
}

/** An event that is not one (bad JSON, envelope or data): no retry makes it one, so it is dead-lettered at once. */
export async function rejectMalformed(ctx: FailureContext, msg: JsMsg, handler: EventHandler): Promise<void> {
  await deadLetter(ctx, msg, {
    durable: ctx.durable,
    reason: 'malformed',
    error: new Error(whyMalformed(msg, handler)),
    type: handler.contract.subject,
  });
}

/**
 * Handling threw. The database or NATS being away is retried with the schedule's capped backoff for as long as it
 * lasts (the stream's consumer has no max_deliver, so nothing is dropped); any other error would fail the same way
 * again, so the event is dead-lettered at once, where it waits for a fix and a `dlq replay`.
 */
export async function handleFailure(ctx: FailureContext, msg: JsMsg, event: ReceivedEvent, error: unknown): Promise<void> {
  const attempt = msg.info.deliveryCount;
  if (isTransientError(error)) {
    ctx.bus.log.warn({ err: error, event_id: event.id, type: event.type, attempt }, 'event handling failed for now; retrying');
    msg.nak(retryDelayMs(ctx.retry, attempt));
    return;
  }
  await deadLetter(ctx, msg, { durable: ctx.durable, reason: 'failed', error, type: event.type, eventId: event.id });
}

/** Dead-letters and terminates `msg`; when the dead letter could not be stored, the event is redelivered instead. */
async function deadLetter(ctx: FailureContext, msg: JsMsg, cause: DeadLetterCause): Promise<void> {
  const logged = { err: cause.error, consumer: ctx.durable, subject: msg.subject, seq: msg.seq, event_id: cause.eventId };
  try {
    await sendToDeadLetters(ctx.bus, msg, cause);
  } catch (error) {
    ctx.bus.log.error({ ...logged, dead_letter_error: error }, 'event could not be dead-lettered; delivered again later');
    msg.nak(retryDelayMs(ctx.retry, msg.info.deliveryCount));
    return;
  }
  ctx.bus.log.error({ ...logged, reason: cause.reason, attempt: msg.info.deliveryCount }, 'event dead-lettered');
  msg.term(); // no reason text: nats-server 2.9 ignores a +TERM that carries one
  ctx.onDeadLetter?.(ctx.durable, cause.type);
}
