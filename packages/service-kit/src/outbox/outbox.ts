import { randomUUID } from 'node:crypto';
import type { EventContract, EventEnvelope } from '@app/contracts';
import type { z } from 'zod';
import { queryableOf, type PrismaRaw, type Queryable } from '../db/sql.js';
import { SqlParams } from '../db/statements.js';
import { activeTraceContext, type StoredTraceContext } from '../telemetry/trace-context.js';
import { assertPublishable } from './broker-limit.js';

export interface EventContext {
  organizationId: string;
  correlationId?: string | null;
}

/**
 * The envelope of a new domain event (its id is also the JetStream msgID), with the contract's current
 * `schema_version`. Validates `data` against the contract.
 */
function eventEnvelope<Data extends z.ZodType>(
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

/** A row of the kit's `outbox` table, as `recordEvent` writes it and a single-statement write inserts it itself. */
export interface OutboxRow extends StoredTraceContext {
  id: string;
  subject: string;
  organizationId: string;
  /** The envelope's JSON, as stored and published. */
  payload: string;
}

/**
 * The outbox row of a new domain event, with the active trace context. Throws a 400 naming the heaviest field when
 * the broker could never take the event (assertPublishable), so the change is refused before it commits.
 */
export function outboxRow<Data extends z.ZodType>(contract: EventContract<Data>, data: z.input<Data>, context: EventContext): OutboxRow {
  return outboxEntry(contract, data, context).row;
}

function outboxEntry<Data extends z.ZodType>(
  contract: EventContract<Data>,
  data: z.input<Data>,
  context: EventContext,
): { row: OutboxRow; envelope: EventEnvelope<z.output<Data>> } {
  const envelope = eventEnvelope(contract, data, context);
  const payload = JSON.stringify(envelope);
  assertPublishable(payload, envelope.data);
  const row = { id: envelope.id, subject: contract.subject, organizationId: context.organizationId, payload, ...activeTraceContext() };
  return { row, envelope };
}

/**
 * `INSERT INTO outbox … SELECT … FROM <from>` of `row`, its values added to `params`: the one place the outbox's
 * columns are listed, for a statement that writes its change and its event together (`from`: the CTE of the change,
 * so the event exists exactly when the change does).
 */
export function outboxInsertSql(row: OutboxRow, params: SqlParams, from?: string): string {
  const $ = (value: unknown) => params.add(value);
  return `INSERT INTO outbox (id, subject, organization_id, payload, traceparent, tracestate)
    SELECT ${$(row.id)}::uuid, ${$(row.subject)}, ${$(row.organizationId)}::uuid, ${$(row.payload)}::jsonb, ${$(row.traceparent)}, ${$(row.tracestate)}${from ? ` FROM ${from}` : ''}`;
}

/**
 * Records a domain event in the outbox. Call it with the transaction that makes the change,
 * so the event exists exactly when the change commits; the relay publishes it afterwards.
 * `tx` is a pg client inside `withTransaction` or a Prisma interactive transaction. The active trace context
 * is stored with it, so its publishing and handling join the trace of this write.
 */
export async function recordEvent<Data extends z.ZodType>(
  tx: Queryable | PrismaRaw,
  contract: EventContract<Data>,
  data: z.input<Data>,
  context: EventContext,
): Promise<EventEnvelope<z.output<Data>>> {
  const { row, envelope } = outboxEntry(contract, data, context);
  const params = new SqlParams();
  await queryableOf(tx).query(outboxInsertSql(row, params), params.values);
  return envelope;
}
