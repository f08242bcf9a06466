import type { JsMsg } from '@nats-io/jetstream';
import { eventDataOfVersion, eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@app/contracts';
import { z } from 'zod';
import type { Queryable } from '../db/sql.js';

/** One event contract of a consumer and what applying such an event does; build it with `eventHandler`. */
export interface EventHandler {
  readonly contract: EventContract<z.ZodType>;
  /**
   * The event's effect, ready to run in a transaction; null when its `schema_version` is neither the contract's
   * current nor its previous one, or its data does not match that version's schema.
   */
  prepare(envelope: EventEnvelope): ((tx: Queryable) => Promise<void>) | null;
}

/**
 * Pairs a contract with its handler: the handler gets that contract's data, parsed and typed (no telling event
 * types apart by their fields). It runs inside the transaction that also records the event in the inbox.
 * An event of the contract's previous `schema_version` is read with that version's schema and upgraded, so the
 * handler always sees the current shape (and the current `schema_version`).
 */
export function eventHandler<Data extends z.ZodType>(
  contract: EventContract<Data>,
  handle: (event: EventEnvelope<z.output<Data>>, tx: Queryable) => Promise<void>,
): EventHandler {
  return {
    contract,
    prepare(envelope) {
      const current = currentEvent(contract, envelope);
      return current ? (tx) => handle(current, tx) : null;
    },
  };
}

/**
 * The envelope with `contract`'s current data: read with its `schema_version`'s schema and, if that is the previous
 * one, upgraded (with the current `schema_version`); null when the version is unknown or the data does not match it.
 */
function currentEvent<Data extends z.ZodType>(
  contract: EventContract<Data>,
  envelope: EventEnvelope,
): EventEnvelope<z.output<Data>> | null {
  const version = eventDataOfVersion(contract, envelope.schema_version);
  const read = version?.data.safeParse(envelope.data);
  if (!version || !read?.success) return null;
  const data = contract.data.safeParse(version.upgrade(read.data));
  return data.success ? { ...envelope, schema_version: contract.version, data: data.data } : null;
}

/** An event read off the stream and matched to its handler. */
export interface ReceivedEvent {
  id: string;
  type: string;
  /** The envelope's organization, in lower case. */
  organizationId: string;
  apply: (tx: Queryable) => Promise<void>;
}

/**
 * How a consumer reads an envelope: one without `schema_version` is version 1. Envelopes written before events were
 * versioned (still in streams and unpublished outboxes when the versioned services start) are version 1 data, and
 * are applied rather than lost; every envelope written since carries its version.
 */
const receivedEnvelopeSchema = eventEnvelopeSchema.extend({ schema_version: z.number().int().min(1).default(1) });

/** The message's envelope; null when it is not JSON or not an event envelope. */
function envelopeOf(msg: JsMsg): EventEnvelope | null {
  let json: unknown;
  try {
    json = msg.json();
  } catch {
    return null;
  }
  const envelope = receivedEnvelopeSchema.safeParse(json);
  return envelope.success ? envelope.data : null;
}

/** The message as an event for `handler`; null when it is not JSON, not an event envelope, or not the contract's data. */
export function receiveEvent(msg: JsMsg, handler: EventHandler): ReceivedEvent | null {
  const envelope = envelopeOf(msg);
  const apply = envelope && handler.prepare(envelope);
  if (!envelope || !apply) return null;
  const { id, type, organization_id: organizationId } = envelope;
  return { id, type, organizationId: organizationId.toLowerCase(), apply };
}

/**
 * The message as an event of `contract`, read as the consumers read it (its data upgraded to the current version), for
 * readers that are no consumer (the change feed's); null when it is not JSON, not an envelope or not the contract's data.
 */
export function readEvent<Data extends z.ZodType>(msg: JsMsg, contract: EventContract<Data>): EventEnvelope<z.output<Data>> | null {
  const envelope = envelopeOf(msg);
  return envelope && currentEvent(contract, envelope);
}

/** Why `receiveEvent` refused the message, for its dead letter: the first problem found, in one line. */
export function whyMalformed(msg: JsMsg, handler: EventHandler): string {
  let json: unknown;
  try {
    json = msg.json();
  } catch (error) {
    return `not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const envelope = receivedEnvelopeSchema.safeParse(json);
  if (!envelope.success) return `not an event envelope (${firstIssue(envelope.error)})`;
  const { schema_version: version } = envelope.data;
  return `data not of ${handler.contract.subject} schema_version ${version}, or a version this consumer does not know`;
}

function firstIssue(error: z.ZodError): string {
  const [issue] = error.issues;
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
}
