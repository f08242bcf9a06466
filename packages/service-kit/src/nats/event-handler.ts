import type { JsMsg } from '@nats-io/jetstream';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@app/contracts';
import type { z } from 'zod';
import type { Queryable } from '../db/sql.js';

/** One event contract of a consumer and what applying such an event does; build it with `eventHandler`. */
export interface EventHandler {
  readonly contract: EventContract<z.ZodType>;
  /** The event's effect, ready to run in a transaction; null when its data does not match the contract. */
  prepare(envelope: EventEnvelope): ((tx: Queryable) => Promise<void>) | null;
}

/**
 * Pairs a contract with its handler: the handler gets that contract's data, parsed and typed (no telling event
 * types apart by their fields). It runs inside the transaction that also records the event in the inbox.
 */
export function eventHandler<Data extends z.ZodType>(
  contract: EventContract<Data>,
  handle: (event: EventEnvelope<z.output<Data>>, tx: Queryable) => Promise<void>,
): EventHandler {
  return {
    contract,
    prepare(envelope) {
      const data = contract.data.safeParse(envelope.data);
      return data.success ? (tx) => handle({ ...envelope, data: data.data }, tx) : null;
    },
  };
}

/** An event read off the stream and matched to its handler. */
export interface ReceivedEvent {
  id: string;
  type: string;
  apply: (tx: Queryable) => Promise<void>;
}

/** The message as an event for `handler`; null when it is not JSON, not an event envelope, or not the contract's data. */
export function receiveEvent(msg: JsMsg, handler: EventHandler): ReceivedEvent | null {
  let json: unknown;
  try {
    json = msg.json();
  } catch {
    return null;
  }
  const envelope = eventEnvelopeSchema.safeParse(json);
  const apply = envelope.success ? handler.prepare(envelope.data) : null;
  return envelope.success && apply ? { id: envelope.data.id, type: envelope.data.type, apply } : null;
}
