import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerChangeBooking } from './routes/booking-change.route.js';
import { registerCreateBooking } from './routes/booking-create.route.js';
import { registerReadBookings } from './routes/booking-read.route.js';
import { registerHolds } from './routes/hold.route.js';
import { registerBookingSeries } from './routes/series.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Bookings against schedules: lifecycle, seats, holds, series, double-booking guard, idempotency. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp(
    { name: 'bookings', description: 'Bookings against schedules: lifecycle, seats, holds, series, double-booking guard, idempotency.' },
    deps,
    [registerCreateBooking, registerReadBookings, registerChangeBooking, registerHolds, registerBookingSeries],
  );
}
