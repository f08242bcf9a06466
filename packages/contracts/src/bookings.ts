import { z } from 'zod';
import { bookingStatusSchema } from './booking-status.js';
import { bookingRecordSchema } from './bookings-http.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';

/**
 * What every booking event carries: the booking's state after the change. `version` grows by one with
 * each change, so a projection applies an event only when it is newer than what it holds.
 */
export const bookingStateSchema = z.object({
  booking_id: z.uuid(),
  schedule_id: z.uuid(),
  event_type_id: z.uuid().nullable(),
  status: bookingStatusSchema,
  start_time: z.iso.datetime(),
  end_time: z.iso.datetime(),
  version: z.number().int().min(1),
  record: publicRecord(bookingRecordSchema),
});
export type BookingState = z.infer<typeof bookingStateSchema>;

/** A booking was created (always PENDING, version 1). */
export const bookingCreatedEvent = defineEvent('bookings.booking.created', bookingStateSchema);
/** A status move other than a cancellation (PATCH status CONFIRMED, COMPLETED or NO_SHOW). */
export const bookingStatusChangedEvent = defineEvent(
  'bookings.booking.status_changed',
  bookingStateSchema.extend({ previous_status: bookingStatusSchema, previous_attributes: previousAttributesSchema }),
);
/** start_time/end_time changed (PATCH with both). */
export const bookingRescheduledEvent = defineEvent(
  'bookings.booking.rescheduled',
  bookingStateSchema.extend({
    previous_start_time: z.iso.datetime(),
    previous_end_time: z.iso.datetime(),
    previous_attributes: previousAttributesSchema,
  }),
);
/** The booking became CANCELLED, by DELETE or by PATCH status CANCELLED: its interval is free again. */
export const bookingCancelledEvent = defineEvent(
  'bookings.booking.cancelled',
  bookingStateSchema.extend({ previous_status: bookingStatusSchema }),
);

/** Details that do not move the booking (title, location, metadata) changed; `changed` names them. */
export const bookingUpdatedEvent = defineEvent(
  'bookings.booking.updated',
  bookingStateSchema.extend({ changed: z.array(z.string()), previous_attributes: previousAttributesSchema }),
);

export const BOOKING_EVENTS = [
  bookingCreatedEvent,
  bookingStatusChangedEvent,
  bookingRescheduledEvent,
  bookingCancelledEvent,
  bookingUpdatedEvent,
] as const;
export const BOOKINGS_STREAM = defineStream('BOOKINGS', BOOKING_EVENTS);
