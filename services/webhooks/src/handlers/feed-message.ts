import type { JsMsg } from '@nats-io/jetstream';
import {
  eventDataOfVersion,
  eventEnvelopeSchema,
  FEED_POSITION_HEADERS,
  WEBHOOK_TYPE_OF_SUBJECT,
  webhookData,
  webhookPreviousAttributes,
  type EventContract,
  type StreamContract,
} from '@app/contracts';
import { z } from 'zod';
import type { EventPosition } from '../domain/feed-position.js';

/** What a message of a stream is to the feed. */
export type FeedMessage =
  | { kind: 'event'; event: FeedEvent; position: EventPosition | null }
  /** An internal event type, or a message that is not a readable event (the webhooks consumers dead-letter those). */
  | { kind: 'skipped'; why?: string };

/** A public event as a feed item holds it: the same id, type, occurred_at and data as its webhook. */
export interface FeedEvent {
  id: string;
  organizationId: string;
  type: string;
  occurredAt: string;
  data: unknown;
  previousAttributes: Record<string, unknown> | null;
}

/** An envelope without `schema_version` is version 1 (as the kit's consumers read it). */
const envelopeSchema = eventEnvelopeSchema.extend({ schema_version: z.number().int().min(1).default(1) });

/** Reads the messages of one stream, whose subjects carry the deployment's prefix (`subject` adds it). */
export function feedMessageReader(stream: StreamContract, subject: (name: string) => string): (msg: JsMsg) => FeedMessage {
  const contracts = new Map(stream.events.map((contract) => [subject(contract.subject), contract] as const));
  return (msg) => {
    const contract = contracts.get(msg.subject);
    if (!contract || !WEBHOOK_TYPE_OF_SUBJECT[contract.subject]) return { kind: 'skipped' };
    const event = feedEvent(contract, json(msg));
    return event ? { kind: 'event', event, position: positionOf(msg) } : { kind: 'skipped', why: `malformed ${contract.subject}` };
  };
}

/** The event as the webhooks consumer reads it: its data parsed by the contract's version and upgraded to the current. */
function feedEvent(contract: EventContract<z.ZodType>, json: unknown): FeedEvent | null {
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) return null;
  const version = eventDataOfVersion(contract, envelope.data.schema_version);
  const read = version?.data.safeParse(envelope.data.data);
  if (!version || !read?.success) return null;
  const parsed = contract.data.safeParse(version.upgrade(read.data));
  if (!parsed.success) return null;
  // Every domain event's data is an object (the contracts' z.object schemas).
  const data = parsed.data as Record<string, unknown>;
  const { id, occurred_at: occurredAt, organization_id: organizationId } = envelope.data;
  return {
    id: id.toLowerCase(),
    organizationId: organizationId.toLowerCase(),
    type: WEBHOOK_TYPE_OF_SUBJECT[contract.subject] ?? contract.subject,
    occurredAt,
    data: webhookData(contract.subject, data),
    previousAttributes: webhookPreviousAttributes(contract.subject, data) ?? null,
  };
}

function positionOf(msg: JsMsg): EventPosition | null {
  const tx = msg.headers?.get(FEED_POSITION_HEADERS.transaction);
  const seq = msg.headers?.get(FEED_POSITION_HEADERS.sequence);
  return tx && seq && /^\d+$/.test(tx) && /^\d+$/.test(seq) ? { tx: BigInt(tx), seq: BigInt(seq) } : null;
}

function json(msg: JsMsg): unknown {
  try {
    return msg.json();
  } catch {
    return undefined;
  }
}
