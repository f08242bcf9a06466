import { dollarsToCents, eventCreatedEvent, eventDeletedEvent, eventUpdatedEvent, type EventRecord } from '@app/contracts';
import type { CreateEventBody, UpdateEventBody } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  invalidInput,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import {
  checkedInPlaces,
  deleteEvent as deleteEventRow,
  insertEvent,
  lockEvent,
  updateEvent as updateEventRow,
} from '../db/event.repository.js';
import type { EventRow, EventState } from '../db/event.repository.js';
import type { Db } from '../db/prisma.js';
import { canTransition, transitionMessage } from '../domain/event-status.js';
import { eventRecord } from '../domain/event.record.js';
import { eventInstants, type LocalEventTime } from '../domain/event-time.js';
import { write, type UseCaseContext } from './context.js';
import { promoteWaitlist } from './promote-waitlist.js';

/** An event's record as `GET` shows it without counts, as by default (a written row has none). */
const recordWithoutCounts = (event: EventRow): EventRecord =>
  eventRecord({ ...event, placesTaken: undefined, placesWaitlisted: undefined, checkedIn: undefined });

/**
 * Records the change event of a written event and answers its record, built once for both; an update's event also
 * carries what the record was `before` (previous_attributes).
 */
async function recordEventChange(
  tx: Db,
  caller: Caller,
  contract: typeof eventCreatedEvent | typeof eventUpdatedEvent,
  event: EventRow,
  before?: EventRecord,
): Promise<EventRecord> {
  const record = recordWithoutCounts(event);
  const previous = before && { previous_attributes: previousAttributes(before, record) };
  await recordEvent(tx, contract, { id: event.id, status: event.status, record, ...previous }, eventContextOf(caller));
  return record;
}

export async function createEvent(ctx: UseCaseContext, caller: Caller, body: CreateEventBody): Promise<EventRecord> {
  const state: EventState = {
    ...withInstants({
      startDate: body.start_date,
      startTime: body.start_time ?? null,
      endTime: body.end_time ?? null,
      timezone: body.timezone ?? caller.timezone,
    }),
    siteId: body.site_id ?? null,
    title: body.title,
    description: body.description ?? null,
    location: body.location ?? null,
    costCents: dollarsToCents(body.cost ?? 0),
    slots: body.slots ?? null,
    status: body.status ?? 'draft',
    waitlist: body.waitlist ?? false,
    questions: body.questions ?? [],
  };
  return write(ctx, async (tx) => {
    const event = await insertEvent(tx, caller.organizationId, state);
    return recordEventChange(tx, caller, eventCreatedEvent, event);
  });
}

/**
 * Applies any subset of fields and recomputes the instants. Runs under the event's row lock, so the
 * places taken cannot grow between the checks (slots, unpublishing, If-Match) and the write.
 */
export async function updateEvent(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, patch, ifMatch }: { id: string; patch: UpdateEventBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<EventRecord>> {
  const id = recordId(rawId, 'Event');
  return write(ctx, async (tx) => {
    const current = await lockEvent(tx, caller.organizationId, id);
    if (!current) throw notFound('Event');
    // The ETag's check-ins (getEvent): scans do not take the event's lock, so they are read as they are now.
    const checkedIn = await checkedInPlaces(tx, id);
    requireMatch(ifMatch, { id, version: [current.version, checkedIn] });
    const next = merge(current, patch);
    if (!canTransition(current.status, next.status, current.placesTaken + current.placesWaitlisted))
      throw new AppError('INVALID_TRANSITION', transitionMessage(current.status, next.status));
    if (next.slots !== null && next.slots < current.placesTaken)
      throw new AppError('CONFLICT', `slots cannot be lower than the ${current.placesTaken} places already taken`);
    const event = await updateEventRow(tx, id, next);
    const record = await recordEventChange(tx, caller, eventUpdatedEvent, event, recordWithoutCounts(current));
    // More slots may let the waitlist in; a promotion raises the event's version again (its counts changed).
    const promoted = await promoteWaitlist(tx, caller, id);
    const version = promoted > 0 ? ((await lockEvent(tx, caller.organizationId, id))?.version ?? event.version) : event.version;
    return { record, version: [version, checkedIn] };
  });
}

export async function deleteEvent(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, 'Event');
  await write(ctx, async (tx) => {
    if (ifMatch) {
      // Checked under the row lock the delete then keeps: no change comes in between.
      const current = await lockEvent(tx, caller.organizationId, id);
      if (!current) throw notFound('Event');
      requireMatch(ifMatch, { id, version: [current.version, await checkedInPlaces(tx, id)] });
    }
    if (!(await deleteEventRow(tx, caller.organizationId, id))) throw notFound('Event');
    await recordEvent(tx, eventDeletedEvent, { id }, eventContextOf(caller));
  });
  return { id, deleted: true };
}

function merge(current: EventRow, patch: UpdateEventBody): EventState {
  const local: LocalEventTime = {
    startDate: patch.start_date ?? current.startDate,
    startTime: patch.start_time !== undefined ? patch.start_time : current.startTime,
    endTime: patch.end_time !== undefined ? patch.end_time : current.endTime,
    timezone: patch.timezone ?? current.timezone,
  };
  return {
    ...withInstants(local),
    siteId: patch.site_id !== undefined ? patch.site_id : current.siteId,
    title: patch.title ?? current.title,
    description: patch.description !== undefined ? patch.description : current.description,
    location: patch.location !== undefined ? patch.location : current.location,
    costCents: patch.cost !== undefined ? dollarsToCents(patch.cost) : current.costCents,
    slots: patch.slots !== undefined ? patch.slots : current.slots,
    status: patch.status ?? current.status,
    waitlist: patch.waitlist ?? current.waitlist,
    questions: patch.questions ?? current.questions,
  };
}

/** The local fields with their UTC instants; an end that falls before the start (inside a DST gap) is refused. */
function withInstants(local: LocalEventTime): Pick<EventState, 'startDate' | 'startTime' | 'endTime' | 'timezone' | 'startsAt' | 'endsAt'> {
  const { startsAt, endsAt } = eventInstants(local);
  if (endsAt !== null && endsAt < startsAt) {
    // Only a start inside a DST gap gets here: it moves forward by the gap (API.md), past this end.
    const message = 'end_time must be after start_time, which falls in a daylight-saving gap and moves forward by it';
    throw invalidInput('end_time', message);
  }
  return { ...local, startsAt, endsAt };
}
