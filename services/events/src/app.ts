import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { registerEventTypeRoutes } from './routes/event-types.route.js';
import { registerEventRoutes } from './routes/events.route.js';
import { registerRegistrationRoutes } from './routes/registrations.route.js';
import type { UseCaseContext } from './use-cases/context.js';

export interface AppDeps {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: UseCaseContext;
}

/** Events, registrations and event types. */
export async function buildApp(deps: AppDeps): Promise<ServiceApp> {
  const app = await buildService({
    name: 'events',
    description: 'Events, registrations and event types.',
    log: deps.log,
    readiness: deps.readiness,
  });
  registerEventRoutes(app, deps.ctx);
  registerRegistrationRoutes(app, deps.ctx);
  registerEventTypeRoutes(app, deps.ctx);
  return app;
}
