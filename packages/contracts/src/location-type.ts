import { z } from 'zod';

// Its own module: event types, bookings and their events all use it (see booking-status.ts for why).
export const LOCATION_TYPES = ['in_person', 'phone', 'video', 'custom'] as const;
export const locationTypeSchema = z.enum(LOCATION_TYPES, { message: `must be one of ${LOCATION_TYPES.join(', ')}` });
