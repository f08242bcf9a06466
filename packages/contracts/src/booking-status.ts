import { z } from 'zod';

// Its own module: both the booking events (bookings.ts) and the HTTP schemas (bookings-http.ts) use it, and the events
// carry the HTTP record, so neither may import the other's module for it.
export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export const bookingStatusSchema = z.enum(BOOKING_STATUSES, { message: `must be one of ${BOOKING_STATUSES.join(', ')}` });
export type BookingStatus = z.infer<typeof bookingStatusSchema>;
