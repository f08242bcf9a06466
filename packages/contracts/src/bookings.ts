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
  /** Seats the booking takes (1 unless its schedule has more per slot); absent from events older than seats. */
  seats: z.number().int().min(1).default(1),
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

export const HOLD_STATUSES = ['active', 'released', 'expired', 'used'] as const;
export const holdStatusSchema = z.enum(HOLD_STATUSES);

/**
 * A hold's state, for the slot projection only: holds are not bookings, so these subjects reach no webhook and no
 * change feed (they have no webhook type). An active hold takes `seats` of its interval until `expires_at`; the
 * projection stops counting it then on its own, with no event (an expiry sends none).
 */
export const holdStateSchema = z.object({
  hold_id: z.uuid(),
  schedule_id: z.uuid(),
  start_time: z.iso.datetime(),
  end_time: z.iso.datetime(),
  seats: z.number().int().min(1),
  status: holdStatusSchema,
  expires_at: z.iso.datetime(),
  booking_id: z.uuid().nullable(),
});
export type HoldState = z.infer<typeof holdStateSchema>;

/** A hold was placed (status active). */
export const holdCreatedEvent = defineEvent('bookings.hold.created', holdStateSchema);
/** A hold was released (DELETE) or used by a booking (status used, booking_id set): its seats are free of it. */
export const holdEndedEvent = defineEvent('bookings.hold.ended', holdStateSchema);

/** The events of a booking's state: each carries the whole of it, so a projection applies them all the same way. */
export const BOOKING_STATE_EVENTS = [
  bookingCreatedEvent,
  bookingStatusChangedEvent,
  bookingRescheduledEvent,
  bookingCancelledEvent,
  bookingUpdatedEvent,
] as const;
export const HOLD_EVENTS = [holdCreatedEvent, holdEndedEvent] as const;
export const BOOKING_EVENTS = [...BOOKING_STATE_EVENTS, ...HOLD_EVENTS] as const;
export const BOOKINGS_STREAM = defineStream('BOOKINGS', BOOKING_EVENTS);
