import type { BookingCalendarEventRecord, BookingState, BookingStatus, CreateBookingBody } from '@app/contracts';

/** What newBooking reads of a creation body (a series' occurrences are bodies too). */
type NewBookingBody = Omit<CreateBookingBody, 'hold_id'>;

type LocationType = 'in_person' | 'phone' | 'video' | 'custom';

interface Attendee {
  name: string;
  email: string;
  phone: string | null;
  timezone: string | null;
  notes: string | null;
}

/** A booking as the service holds it (the repository's plain object). */
export interface Booking {
  id: string;
  organizationId: string;
  scheduleId: string;
  eventTypeId: string | null;
  startTime: Date;
  endTime: Date;
  status: BookingStatus;
  title: string | null;
  timezone: string | null;
  location: string | null;
  locationType: LocationType | null;
  metadata: Record<string, unknown> | null;
  attendee: Attendee;
  /** Seats it takes of its slot (1..the schedule's seats_per_slot). */
  seats: number;
  /** Made on a schedule of more than one seat per slot: judged by the seat sum, not the one-seat exclusion constraint. */
  shared: boolean;
  seriesId: string | null;
  /** SHA-256 of its client_secret (shown once, in the 201); null for bookings made before client secrets. */
  clientSecretHash: Uint8Array | null;
  /** Grows by one with every change; each domain event carries the version it produced. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /**
   * Its event in its host's calendar as calendar-sync last reported it (write-back), null when none is kept: read
   * beside the booking, never written with it, so it moves neither `version` nor `updatedAt`.
   */
  calendarEvent: BookingCalendarEventRecord | null;
  /** What of calendarEvent its ETag covers (empty when none is shown); see bookingTagVersion. */
  calendarEventTag: readonly number[];
}

/**
 * What a booking's ETag is made of: its version, and that of the calendar event its record shows. API.md's ETag
 * changes whenever the record does, and calendar_event is part of the record though it never moves the version.
 */
export function bookingTagVersion(booking: Booking): number[] {
  return [booking.version, ...booking.calendarEventTag];
}

/** The detail fields a PATCH may replace without moving the booking. */
export interface BookingDetails {
  title?: string | null;
  location?: string | null;
  locationType?: LocationType | null;
  metadata?: Record<string, unknown> | null;
}

/** What every booking event carries: the state after the change. */
export function bookingState(booking: Booking): BookingState {
  return {
    booking_id: booking.id,
    schedule_id: booking.scheduleId,
    event_type_id: booking.eventTypeId,
    status: booking.status,
    start_time: booking.startTime.toISOString(),
    end_time: booking.endTime.toISOString(),
    version: booking.version,
    seats: booking.seats,
  };
}

/**
 * A new booking from a validated creation body: always PENDING (the spec's table), version 1.
 * `timezone` defaults to the schedule's, the zone the booked time was offered in.
 */
export function newBooking(
  body: NewBookingBody,
  owner: {
    id: string;
    organizationId: string;
    scheduleTimezone: string;
    seatsPerSlot: number;
    clientSecretHash: Uint8Array;
    seriesId?: string;
  },
  now: Date,
): Booking {
  return {
    id: owner.id,
    organizationId: owner.organizationId,
    scheduleId: body.schedule_id.toLowerCase(),
    eventTypeId: body.event_type_id?.toLowerCase() ?? null,
    startTime: body.start_time,
    endTime: body.end_time,
    status: 'PENDING',
    title: body.title ?? null,
    timezone: body.timezone ?? owner.scheduleTimezone,
    location: body.location ?? null,
    locationType: body.location_type ?? null,
    metadata: body.metadata ?? null,
    attendee: {
      name: body.attendee.name,
      email: body.attendee.email,
      phone: body.attendee.phone ?? null,
      timezone: body.attendee.timezone ?? null,
      notes: body.attendee.notes ?? null,
    },
    seats: body.seats ?? 1,
    shared: owner.seatsPerSlot > 1,
    seriesId: owner.seriesId ?? null,
    clientSecretHash: owner.clientSecretHash,
    version: 1,
    createdAt: now,
    updatedAt: now,
    calendarEvent: null,
    calendarEventTag: [],
  };
}
