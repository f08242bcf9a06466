import { centsToDollars, type EventRecord, type EventStatus, type EventTypeRecord, type RegistrationRecord } from '@app/contracts';
import { isoInstant } from '@app/service-kit';
import type { EventRow, PresentedEventRow } from '../db/event.repository.js';
import type { EventTypeRow } from '../db/event-type.repository.js';
import type { RegistrationRow } from '../db/registration.repository.js';
import { remainingPlaces } from '../domain/registration-policy.js';

/** The API shape of an event: instants in UTC with milliseconds, money in dollars, counts when asked for. */
export function presentEvent(row: EventRow | PresentedEventRow): EventRecord {
  const record: EventRecord = {
    id: row.id,
    title: row.title,
    description: row.description,
    start_date: row.startDate,
    start_time: row.startTime,
    end_time: row.endTime,
    timezone: row.timezone,
    starts_at: isoInstant(row.startsAt),
    ends_at: row.endsAt === null ? null : isoInstant(row.endsAt),
    location: row.location,
    cost: centsToDollars(row.costCents),
    slots: row.slots,
    status: row.status satisfies EventStatus,
    site_id: row.siteId,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstant(row.updatedAt),
  };
  if (row.placesTaken !== undefined)
    record.counts = { registrations: row.placesTaken, remaining: remainingPlaces(row.slots, row.placesTaken) };
  return record;
}

/** The API shape of an event type; `location_details` is left out when not set. */
export function presentEventType(row: EventTypeRow): EventTypeRecord {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    duration: row.duration,
    location_type: row.locationType as EventTypeRecord['location_type'],
    ...(row.locationDetails !== null ? { location_details: row.locationDetails } : {}),
    color: row.color,
    requires_approval: row.requiresApproval,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentRegistration(row: RegistrationRow): RegistrationRecord {
  return {
    id: row.id,
    event_id: row.eventId,
    name: row.name,
    email: row.email,
    quantity: row.quantity,
    status: row.status as RegistrationRecord['status'],
    created_at: row.createdAt.toISOString(),
    cancelled_at: row.cancelledAt ? row.cancelledAt.toISOString() : null,
  };
}
