import type { JsMsg } from '@nats-io/jetstream';
import { FEED_POSITION_HEADERS, WEBHOOK_TYPE_OF_SUBJECT, webhookEventOf, type StreamContract } from '@app/contracts';
import { readEvent } from '@app/service-kit';
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

/**
 * Reads the messages of one stream, whose subjects carry the deployment's prefix (`subject` adds it), as the webhooks
 * consumers read them (the kit's `readEvent`) and show them (`webhookEventOf`).
 */
export function feedMessageReader(stream: StreamContract, subject: (name: string) => string): (msg: JsMsg) => FeedMessage {
  // Only the public types: an internal one (calendar.busy.updated) is skipped unread.
  const publicEvents = stream.events.filter((contract) => WEBHOOK_TYPE_OF_SUBJECT[contract.subject]);
  const contracts = new Map(publicEvents.map((contract) => [subject(contract.subject), contract] as const));
  return (msg) => {
    const contract = contracts.get(msg.subject);
    if (!contract) return { kind: 'skipped' };
    const envelope = readEvent(msg, contract);
    // Every domain event's data is an object (the contracts' z.object schemas).
    const shown = envelope && webhookEventOf(contract.subject, envelope.data as Record<string, unknown>);
    if (!envelope || !shown) return { kind: 'skipped', why: `malformed ${contract.subject}` };
    const event: FeedEvent = {
      id: envelope.id.toLowerCase(),
      organizationId: envelope.organization_id.toLowerCase(),
      type: shown.type,
      occurredAt: envelope.occurred_at,
      data: shown.data,
      previousAttributes: shown.previous_attributes ?? null,
    };
    return { kind: 'event', event, position: positionOf(msg) };
  };
}

function positionOf(msg: JsMsg): EventPosition | null {
  const tx = msg.headers?.get(FEED_POSITION_HEADERS.transaction);
  const seq = msg.headers?.get(FEED_POSITION_HEADERS.sequence);
  return tx && seq && /^\d+$/.test(tx) && /^\d+$/.test(seq) ? { tx: BigInt(tx), seq: BigInt(seq) } : null;
}
