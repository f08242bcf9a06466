import {
  dollarsToCents,
  ticketTypeCreatedEvent,
  ticketTypeDeletedEvent,
  ticketTypeUpdatedEvent,
  type CreateTicketTypeBody,
  type ListMeta,
  type Pagination,
  type TicketTypeRecord,
  type UpdateTicketTypeBody,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  invalidInput,
  listPage,
  lockedRead,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { findEvent, lockEvent } from '../db/event.repository.js';
import {
  deleteTicketType as deleteTicketTypeRow,
  findTicketType,
  insertTicketType,
  listTicketTypes as listTicketTypeRows,
  TICKET_TYPE_LIST,
  ticketTypeInUse,
  updateTicketType as updateTicketTypeRow,
  type TicketTypeState,
} from '../db/ticket-type.repository.js';
import { ticketTypeRecord } from '../domain/ticket-type.record.js';
import { write, type UseCaseContext } from './context.js';
import { promoteWaitlist } from './promote-waitlist.js';

type Target = { eventId: string; id: string };

/** A sales window must end after it starts (when both bounds are set). */
function requireWindow(state: Pick<TicketTypeState, 'salesStart' | 'salesEnd'>): void {
  if (state.salesStart && state.salesEnd && state.salesEnd.getTime() <= state.salesStart.getTime())
    throw invalidInput('sales_end', 'sales_end must be after sales_start');
}

/** Written under the event's lock: a registration of the event sees its types as they are, or as they were. */
export async function createTicketType(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, body }: { eventId: string; body: CreateTicketTypeBody },
): Promise<TicketTypeRecord> {
  const eventId = recordId(rawEventId, 'Event');
  const state: TicketTypeState = {
    name: body.name,
    priceCents: BigInt(dollarsToCents(body.price)),
    quantity: body.quantity ?? null,
    salesStart: body.sales_start ?? null,
    salesEnd: body.sales_end ?? null,
  };
  requireWindow(state);
  return write(ctx, async (tx) => {
    if (!(await lockEvent(tx, caller.organizationId, eventId))) throw notFound('Event');
    const row = await insertTicketType(tx, { organizationId: caller.organizationId, eventId }, state);
    const record = ticketTypeRecord(row);
    await recordEvent(tx, ticketTypeCreatedEvent, { id: row.id, event_id: eventId, record }, eventContextOf(caller));
    return record;
  });
}

export async function listTicketTypes(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, query }: { eventId: string; query: Pagination },
): Promise<{ items: TicketTypeRecord[]; meta: ListMeta }> {
  const eventId = recordId(rawEventId, 'Event');
  if (!(await findEvent(ctx.prisma, caller.organizationId, eventId, false))) throw notFound('Event');
  const page = listPage(TICKET_TYPE_LIST, { organizationId: caller.organizationId, filters: { eventId } }, query);
  const { rows, meta } = await listTicketTypeRows(ctx, { organizationId: caller.organizationId, eventId }, page);
  return { items: rows.map(ticketTypeRecord), meta };
}

export async function readTicketType(ctx: UseCaseContext, caller: Caller, target: Target): Promise<Versioned<TicketTypeRecord>> {
  const row = await findTicketType(
    ctx.prisma,
    caller.organizationId,
    recordId(target.eventId, 'Ticket type'),
    recordId(target.id, 'Ticket type'),
  );
  if (!row) throw notFound('Ticket type');
  return { record: ticketTypeRecord(row), version: row.version };
}

/**
 * Under the event's lock (which every change of `sold` takes), then the type's. A quantity below the places sold is a
 * 409; a larger one (or none) promotes the waitlist in the same transaction.
 */
export async function updateTicketType(
  ctx: UseCaseContext,
  caller: Caller,
  { patch, ifMatch, ...target }: Target & { patch: UpdateTicketTypeBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<TicketTypeRecord>> {
  const eventId = recordId(target.eventId, 'Ticket type');
  const id = recordId(target.id, 'Ticket type');
  return write(ctx, async (tx) => {
    if (!(await lockEvent(tx, caller.organizationId, eventId))) throw notFound('Ticket type');
    const scope = { organizationId: caller.organizationId, id, ifMatch };
    const before = await lockedRead(tx, 'ticket_types', scope, () => findTicketType(tx, caller.organizationId, eventId, id));
    if (!before) throw notFound('Ticket type');
    const state: Partial<TicketTypeState> = {
      name: patch.name,
      priceCents: patch.price === undefined ? undefined : BigInt(dollarsToCents(patch.price)),
      quantity: patch.quantity,
      salesStart: patch.sales_start,
      salesEnd: patch.sales_end,
    };
    requireWindow({ salesStart: state.salesStart ?? before.salesStart, salesEnd: state.salesEnd ?? before.salesEnd });
    const quantity = state.quantity === undefined ? before.quantity : state.quantity;
    if (quantity !== null && quantity < before.sold)
      throw new AppError('CONFLICT', `quantity cannot be lower than the ${before.sold} places already sold`);
    await updateTicketTypeRow(tx, id, state);
    await promoteWaitlist(tx, caller, eventId);
    // Read after the promotion: its places are part of `sold`, and of the version the ETag is made from.
    const after = await findTicketType(tx, caller.organizationId, eventId, id);
    if (!after) throw notFound('Ticket type');
    const record = ticketTypeRecord(after);
    const previous = { previous_attributes: previousAttributes(ticketTypeRecord(before), record) };
    await recordEvent(tx, ticketTypeUpdatedEvent, { id, event_id: eventId, record, ...previous }, eventContextOf(caller));
    return { record, version: after.version };
  });
}

/** Refused while a confirmed or waitlisted registration has the type; checked under the event's lock, so none comes in between. */
export async function deleteTicketType(
  ctx: UseCaseContext,
  caller: Caller,
  { ifMatch, ...target }: Target & { ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const eventId = recordId(target.eventId, 'Ticket type');
  const id = recordId(target.id, 'Ticket type');
  await write(ctx, async (tx) => {
    if (!(await lockEvent(tx, caller.organizationId, eventId))) throw notFound('Ticket type');
    const current = await findTicketType(tx, caller.organizationId, eventId, id);
    if (!current) throw notFound('Ticket type');
    requireMatch(ifMatch, current);
    if (await ticketTypeInUse(tx, id)) throw new AppError('TICKET_TYPE_IN_USE', 'Ticket type has confirmed or waitlisted registrations');
    await deleteTicketTypeRow(tx, id);
    await recordEvent(tx, ticketTypeDeletedEvent, { id }, eventContextOf(caller));
  });
  return { id, deleted: true };
}
