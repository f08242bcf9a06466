import type { BookingRecord } from '@app/contracts';
import type { Booking } from './booking.js';

/**
 * A booking as the API shows it, as its webhooks and change events carry it and as an Idempotency-Key replays it: every
 * field of API.md, instants as UTC ISO strings with milliseconds.
 */
export function bookingRecord(booking: Booking): BookingRecord {
  return {
    id: booking.id,
    schedule_id: booking.scheduleId,
    event_type_id: booking.eventTypeId,
    start_time: booking.startTime.toISOString(),
    end_time: booking.endTime.toISOString(),
    status: booking.status,
    title: booking.title,
    timezone: booking.timezone,
    location: booking.location,
    location_type: booking.locationType,
    metadata: booking.metadata,
    attendee: { ...booking.attendee },
    attendee_name: booking.attendee.name,
    attendee_email: booking.attendee.email,
    cancelled: booking.status === 'CANCELLED',
    seats: booking.seats,
    series_id: booking.seriesId,
    calendar_event: booking.calendarEvent && { ...booking.calendarEvent },
    created_at: booking.createdAt.toISOString(),
    updated_at: booking.updatedAt.toISOString(),
  };
}
