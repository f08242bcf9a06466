import type { EventContract } from '@app/contracts';
import { activeTraceContext, eventEnvelope, type EventContext, type StoredTraceContext } from '@app/service-kit';
import type { z } from 'zod';

/**
 * An outbox row of the kit's `outbox` table (id, subject, payload, and the trace context of the request that wrote
 * it), for a statement that writes it with its change.
 */
export interface OutboxEvent extends StoredTraceContext {
  id: string;
  subject: string;
  payload: string;
}

/**
 * The row the kit's `recordEvent` would write, for a single-statement write (creation), where the change
 * and its event go into the database as one statement rather than in a transaction of three.
 */
export function outboxEvent<Data extends z.ZodType>(
  contract: EventContract<Data>,
  data: z.input<Data>,
  context: EventContext,
): OutboxEvent {
  const envelope = eventEnvelope(contract, data, context);
  return { id: envelope.id, subject: contract.subject, payload: JSON.stringify(envelope), ...activeTraceContext() };
}
