import { headers as natsHeaders } from '@nats-io/nats-core';
import type { JsMsg } from '@nats-io/jetstream';
import type { Bus } from './bus.js';
import { DeadLetterHeader, deadLetterStream, deadLetterSubject, OUTBOX_DEAD_LETTERS } from './dead-letter-naming.js';

/** A header value holds one line; an error's message is kept to this many characters (stacks go to the log). */
const ERROR_MAX_LENGTH = 1000;

/** Why an event could not be applied, and what it is as far as it could be read. */
export interface DeadLetterCause {
  durable: string;
  reason: 'malformed' | 'failed';
  error: unknown;
  /** The handler's event type (its contract's subject): known even for a malformed event. */
  type: string;
  eventId?: string;
}

/**
 * Creates the service's dead-letter stream, or brings its limits up to date. The consuming service owns it (its
 * NATS user may create it), unlike the streams it consumes.
 */
export function ensureDeadLetterStream(bus: Bus): Promise<string> {
  return bus.ensureStream(deadLetterStream(bus.service), 'dead-letters');
}

/**
 * Stores `msg` in the dead-letter stream as it came (payload, headers) with why and where it failed. Published with
 * Nats-Msg-Id `<durable>:<stream sequence>`: a crash between this and the term dead-letters it once, while the same
 * event failing again after a replay (a new stream sequence) is a new dead letter. Throws when JetStream did not
 * store it; the caller then leaves the event to be redelivered.
 */
export async function sendToDeadLetters(bus: Bus, msg: JsMsg, cause: DeadLetterCause): Promise<void> {
  const h = natsHeaders();
  const original = msg.headers;
  for (const key of original?.keys() ?? []) {
    if (key === 'Nats-Msg-Id') h.set(DeadLetterHeader.msgId, original?.get(key) ?? '');
    else if (!key.startsWith('Nats-')) for (const value of original?.values(key) ?? []) h.append(key, value);
  }
  const { info } = msg;
  h.set(DeadLetterHeader.subject, msg.subject);
  h.set(DeadLetterHeader.service, bus.service);
  h.set(DeadLetterHeader.consumer, cause.durable);
  h.set(DeadLetterHeader.stream, info.stream);
  h.set(DeadLetterHeader.streamSequence, String(info.streamSequence));
  h.set(DeadLetterHeader.deliveries, String(info.deliveryCount));
  h.set(DeadLetterHeader.reason, cause.reason);
  h.set(DeadLetterHeader.error, errorText(cause.error));
  h.set(DeadLetterHeader.failedAt, new Date().toISOString());
  h.set(DeadLetterHeader.eventType, cause.type);
  if (cause.eventId) h.set(DeadLetterHeader.eventId, cause.eventId);
  await bus.js.publish(bus.subject(deadLetterSubject(bus.service, cause.durable, cause.type)), msg.data, {
    headers: h,
    msgID: `${cause.durable}:${info.streamSequence}`,
  });
}

/** An outbox row the relay sets aside, and why. */
export interface OutboxDeadLetter {
  id: string;
  seq: string;
  subject: string;
  payload: string;
  attempts: number;
  reason: 'too_large' | 'refused';
  error: unknown;
  /** The stream the event was for. */
  stream: string;
}

/**
 * Names an outbox row the relay set aside on the service's dead-letter stream, where `npm run dlq` lists and replays
 * dead letters (`dlq.<service>.outbox.<event type>`). It carries the event when it fits the broker's `max_payload`;
 * one too large to carry is named only (`Dlq-Payload-Omitted`: its size) and stays in the outbox row. Published with
 * Nats-Msg-Id `outbox:<event id>`, so a crash before the row is marked dead names it once.
 */
export async function sendOutboxDeadLetter(bus: Bus, row: OutboxDeadLetter): Promise<void> {
  const h = natsHeaders();
  h.set(DeadLetterHeader.msgId, row.id);
  h.set(DeadLetterHeader.subject, bus.subject(row.subject));
  h.set(DeadLetterHeader.service, bus.service);
  h.set(DeadLetterHeader.consumer, OUTBOX_DEAD_LETTERS);
  h.set(DeadLetterHeader.stream, bus.streamName(row.stream));
  h.set(DeadLetterHeader.streamSequence, '0');
  h.set(DeadLetterHeader.deliveries, String(row.attempts));
  h.set(DeadLetterHeader.reason, row.reason);
  h.set(DeadLetterHeader.error, errorText(row.error));
  h.set(DeadLetterHeader.failedAt, new Date().toISOString());
  h.set(DeadLetterHeader.eventType, row.subject);
  h.set(DeadLetterHeader.eventId, row.id);
  const bytes = Buffer.from(row.payload);
  const carried = row.reason === 'too_large' ? new Uint8Array() : bytes;
  if (carried.length === 0) h.set(DeadLetterHeader.payloadOmitted, String(bytes.length));
  await bus.js.publish(bus.subject(deadLetterSubject(bus.service, OUTBOX_DEAD_LETTERS, row.subject)), carried, {
    headers: h,
    msgID: `${OUTBOX_DEAD_LETTERS}:${row.id}`,
  });
}

/** The error as one header line: its name and message, without line breaks, capped. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.replace(/[\r\n]+/g, ' ').trim();
  return line.length > ERROR_MAX_LENGTH ? `${line.slice(0, ERROR_MAX_LENGTH - 1)}…` : line;
}
