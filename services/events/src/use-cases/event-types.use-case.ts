import {
  eventTypeCreatedEvent,
  eventTypeDeletedEvent,
  eventTypeUpdatedEvent,
  type CreateEventTypeBody,
  type EventTypeRecord,
  type ListEventTypesQuery,
  type ListMeta,
  type UpdateEventTypeBody,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  isPublishable,
  isUniqueViolation,
  listPage,
  lockedMatch,
  lockedRead,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import {
  deleteEventType as deleteEventTypeRow,
  EVENT_TYPE_LIST,
  findEventType,
  insertEventTypeUnlessSlugTaken,
  listEventTypes as listEventTypeRows,
  slugsLike,
  updateEventType as updateEventTypeRow,
  type EventTypeRow,
  type EventTypeState,
} from '../db/event-type.repository.js';
import type { Db } from '../db/prisma.js';
import { eventTypeRecord } from '../domain/event-type.record.js';
import { firstFreeSlug, slugFromTitle } from '../domain/slug.js';
import { write, type UseCaseContext } from './context.js';

const SLUG_TAKEN_MESSAGE = 'An event type with this slug already exists';
/** Each attempt loses only to a slug committed meanwhile, so this bounds a burst of same-title creates. */
const MAX_SLUG_ATTEMPTS = 100;

/**
 * Records the change event of a written event type (id, slug and the record as `GET` shows it) and answers that record;
 * an update's event also carries what the record was `before` (previous_attributes).
 */
async function recordEventTypeChange(
  tx: Db,
  caller: Caller,
  contract: typeof eventTypeCreatedEvent | typeof eventTypeUpdatedEvent,
  eventType: EventTypeRow,
  before?: EventTypeRecord,
): Promise<EventTypeRecord> {
  const record = eventTypeRecord(eventType);
  const previous = before && { previous_attributes: previousAttributes(before, record) };
  await recordEvent(tx, contract, { id: eventType.id, slug: eventType.slug, record, ...previous }, eventContextOf(caller));
  return record;
}

export async function createEventType(ctx: UseCaseContext, caller: Caller, body: CreateEventTypeBody): Promise<EventTypeRecord> {
  const state: Omit<EventTypeState, 'slug'> = {
    title: body.title,
    description: body.description ?? null,
    duration: body.duration,
    locationType: body.location_type ?? 'video',
    locationDetails: body.location_details ?? null,
    color: body.color ?? null,
    requiresApproval: body.requires_approval ?? false,
    isActive: body.is_active ?? true,
  };
  return write(ctx, async (tx) => {
    const eventType = body.slug
      ? await insertEventTypeUnlessSlugTaken(tx, caller.organizationId, { ...state, slug: body.slug })
      : await insertWithGeneratedSlug(tx, caller.organizationId, state);
    if (!eventType) throw new AppError('SLUG_TAKEN', SLUG_TAKEN_MESSAGE);
    return recordEventTypeChange(tx, caller, eventTypeCreatedEvent, eventType);
  });
}

/** Tries `base`, `base-2`, `base-3`… re-reading the taken slugs after each lost race. */
async function insertWithGeneratedSlug(tx: Db, organizationId: string, state: Omit<EventTypeState, 'slug'>): Promise<EventTypeRow> {
  const base = slugFromTitle(state.title);
  for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt += 1) {
    const slug = firstFreeSlug(base, await slugsLike(tx, organizationId, base));
    const eventType = await insertEventTypeUnlessSlugTaken(tx, organizationId, { ...state, slug });
    if (eventType) return eventType;
  }
  throw new AppError('CONFLICT', 'Could not generate a unique slug; send one explicitly');
}

/**
 * GET /api/v1/event-types/{id}: an event type of the organization, active or not, with its version; a publishable
 * key (a booking page) sees active ones only, an inactive one is its 404 as an unknown one is.
 */
export async function readEventType(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<EventTypeRecord>> {
  const id = recordId(rawId, 'Event type');
  const eventType = await findEventType(ctx.prisma, caller.organizationId, id);
  if (!eventType || (isPublishable(caller) && !eventType.isActive)) throw notFound('Event type');
  return { record: eventTypeRecord(eventType), version: eventType.version };
}

/**
 * An event type of the organization, active or not. Also `events.event_type.get`, the bookings service's check
 * of a booking's event type: another organization's, an unknown or a malformed id is NOT_FOUND.
 */
export async function getEventType(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<EventTypeRecord> {
  return (await readEventType(ctx, caller, rawId)).record;
}

export async function listEventTypes(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListEventTypesQuery,
): Promise<{ items: EventTypeRecord[]; meta: ListMeta }> {
  // A publishable key lists active ones only: `active=false` is then an empty list, not the inactive ones.
  const filter = { active: query.active, ...(isPublishable(caller) ? { activeOnly: true as const } : {}) };
  const page = listPage(EVENT_TYPE_LIST, { organizationId: caller.organizationId, filters: filter }, query);
  const { rows, meta } = await listEventTypeRows(ctx, caller.organizationId, filter, page);
  return { items: rows.map(eventTypeRecord), meta };
}

export async function updateEventType(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, patch, ifMatch }: { id: string; patch: UpdateEventTypeBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<EventTypeRecord>> {
  const id = recordId(rawId, 'Event type');
  const state: Partial<EventTypeState> = {
    title: patch.title,
    slug: patch.slug,
    description: patch.description,
    duration: patch.duration,
    locationType: patch.location_type,
    locationDetails: patch.location_details,
    color: patch.color,
    requiresApproval: patch.requires_approval,
    isActive: patch.is_active,
  };
  try {
    return await write(ctx, async (tx) => {
      // Read under the row lock: a concurrent PATCH's change is what this one's previous_attributes start from.
      const target = { organizationId: caller.organizationId, id, ifMatch };
      const before = await lockedRead(tx, 'event_types', target, () => findEventType(tx, caller.organizationId, id));
      const eventType = before && (await updateEventTypeRow(tx, caller.organizationId, id, state));
      if (!before || !eventType) throw notFound('Event type');
      const record = await recordEventTypeChange(tx, caller, eventTypeUpdatedEvent, eventType, eventTypeRecord(before));
      return { record, version: eventType.version };
    });
  } catch (error) {
    // The unique index is the judge of a renamed slug: no check-then-write race.
    if (isUniqueViolation(error, 'event_types_organization_slug_key')) throw new AppError('SLUG_TAKEN', SLUG_TAKEN_MESSAGE);
    throw error;
  }
}

export async function deleteEventType(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, 'Event type');
  await write(ctx, async (tx) => {
    if (!(await lockedMatch(tx, 'event_types', caller.organizationId, id, ifMatch))) throw notFound('Event type');
    if (!(await deleteEventTypeRow(tx, caller.organizationId, id))) throw notFound('Event type');
    await recordEvent(tx, eventTypeDeletedEvent, { id }, eventContextOf(caller));
  });
  return { id, deleted: true };
}
