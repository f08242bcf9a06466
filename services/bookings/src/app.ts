import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { registerChangeBooking } from './routes/change-booking.route.js';
import { registerCreateBooking } from './routes/create-booking.route.js';
import { registerReadBookings } from './routes/read-bookings.route.js';
import type { UseCaseContext } from './use-cases/context.js';

export interface AppDeps {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: UseCaseContext;
}

/** Bookings against schedules: lifecycle, double-booking guard, idempotency. */
export async function buildApp(deps: AppDeps): Promise<ServiceApp> {
  const app = await buildService({
    name: 'bookings',
    description: 'Bookings against schedules: lifecycle, double-booking guard, idempotency.',
    log: deps.log,
    readiness: deps.readiness,
  });
  registerCreateBooking(app, deps.ctx);
  registerReadBookings(app, deps.ctx);
  registerChangeBooking(app, deps.ctx);
  return app;
}
