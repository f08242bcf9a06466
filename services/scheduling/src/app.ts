import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerScheduleRoutes } from './routes/schedules.route.js';
import { registerSlotRoutes } from './routes/slots.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Schedules, availability and slot generation. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp({ name: 'scheduling', description: 'Schedules, availability and slot generation.' }, deps, [
    registerScheduleRoutes,
    registerSlotRoutes,
  ]);
}
