import type { EventTypeRecord } from '@app/contracts';

/** The fields of a stored event type that its record shows. */
export interface EventTypeRecordSource {
  id: string;
  title: string;
  slug: string;
  description: string | null;
  duration: number;
  locationType: string;
  locationDetails: string | null;
  color: string | null;
  requiresApproval: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An event type as the API shows it, as its change events carry it and as `events.event_type.get` reads it;
 * `location_details` is left out when not set.
 */
export function eventTypeRecord(row: EventTypeRecordSource): EventTypeRecord {
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
