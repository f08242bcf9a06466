import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { registerScheduleRoutes } from './routes/schedules.route.js';
import { registerSlotRoutes } from './routes/slots.route.js';
import type { UseCaseContext } from './use-cases/context.js';

export interface AppDeps {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: UseCaseContext;
}

/** Schedules, availability and slot generation. */
export async function buildApp(deps: AppDeps): Promise<ServiceApp> {
  const app = await buildService({
    name: 'scheduling',
    description: 'Schedules, availability and slot generation.',
    log: deps.log,
    readiness: deps.readiness,
  });
  registerScheduleRoutes(app, deps.ctx);
  registerSlotRoutes(app, deps.ctx);
  return app;
}
