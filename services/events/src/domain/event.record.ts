import { centsToDollars, type EventQuestion, type EventRecord, type EventStatus } from '@app/contracts';
import { isoInstant } from '@app/service-kit';
import { remainingPlaces } from './registration-policy.js';

/**
 * The fields of an event that its record shows: a stored row (instants as Date) or a listing read's row (instants
 * already as the API writes them).
 */
export interface EventRecordSource {
  id: string;
  siteId: string | null;
  title: string;
  description: string | null;
  startDate: string;
  startTime: string | null;
  endTime: string | null;
  timezone: string;
  startsAt: Date | string;
  endsAt: Date | string | null;
  location: string | null;
  costCents: number;
  slots: number | null;
  status: EventStatus;
  waitlist: boolean;
  questions: EventQuestion[];
  createdAt: Date | string;
  updatedAt: Date | string;
  /** Places taken and waitlisted, when the read asked for counts. */
  placesTaken?: number | undefined;
  placesWaitlisted?: number | undefined;
  /** Places checked in, read with the counts. */
  checkedIn?: number | undefined;
}

/**
 * An event as the API shows it and as its change events carry it: instants in UTC with milliseconds, money in
 * dollars, counts when the row has them.
 */
export function eventRecord(row: EventRecordSource): EventRecord {
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
    waitlist: row.waitlist,
    questions: row.questions,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstant(row.updatedAt),
  };
  if (row.placesTaken !== undefined)
    record.counts = {
      registrations: row.placesTaken,
      remaining: remainingPlaces(row.slots, row.placesTaken),
      waitlisted: row.placesWaitlisted ?? 0,
      checked_in: row.checkedIn ?? 0,
    };
  return record;
}
