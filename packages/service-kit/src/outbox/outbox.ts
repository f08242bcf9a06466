import { randomUUID } from 'node:crypto';
import type { EventContract, EventEnvelope } from '@app/contracts';
import type { z } from 'zod';
import { queryableOf, type PrismaRaw, type Queryable } from '../db/sql.js';
import { activeTraceContext } from '../telemetry/trace-context.js';

export interface EventContext {
  organizationId: string;
  correlationId?: string | null;
}

/**
 * The envelope of a new domain event (its id is also the JetStream msgID), with the contract's current
 * `schema_version`. Validates `data` against the contract.
 */
export function eventEnvelope<Data extends z.ZodType>(
  contract: EventContract<Data>,
  data: z.input<Data>,
  context: EventContext,
): EventEnvelope<z.output<Data>> {
  return {
    id: randomUUID(),
    type: contract.subject,
    schema_version: contract.version,
    occurred_at: new Date().toISOString(),
    organization_id: context.organizationId,
    correlation_id: context.correlationId ?? null,
    data: contract.data.parse(data),
  };
}

/**
 * Records a domain event in the outbox. Call it with the transaction that makes the change,
 * so the event exists exactly when the change commits; the relay publishes it afterwards.
 * `tx` is a pg client inside `withTransaction` or a Prisma interactive transaction. The active trace context
 * is stored with it, so its publishing and handling join the trace of this write.
 * (A single-statement write can insert `eventEnvelope(...)` and `activeTraceContext()` into
 * `outbox (id, subject, payload, traceparent, tracestate)` itself.)
 */
export async function recordEvent<Data extends z.ZodType>(
  tx: Queryable | PrismaRaw,
  contract: EventContract<Data>,
  data: z.input<Data>,
  context: EventContext,
): Promise<EventEnvelope<z.output<Data>>> {
  const envelope = eventEnvelope(contract, data, context);
  const trace = activeTraceContext();
  await queryableOf(tx).query(
    'INSERT INTO outbox (id, subject, payload, traceparent, tracestate) VALUES ($1::uuid, $2, $3::jsonb, $4, $5)',
    [envelope.id, contract.subject, JSON.stringify(envelope), trace.traceparent, trace.tracestate],
  );
  return envelope;
}
