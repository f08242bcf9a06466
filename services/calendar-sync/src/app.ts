import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { registerConnectionRoutes } from './routes/connections.route.js';
import { registerOAuthRoutes } from './routes/oauth.route.js';
import type { UseCaseContext } from './use-cases/context.js';

export interface AppDeps {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: UseCaseContext;
}

/** Google and Outlook calendar connections as busy-time blockers. */
export async function buildApp(deps: AppDeps): Promise<ServiceApp> {
  const app = await buildService({
    name: 'calendar-sync',
    description: 'Google and Outlook calendar connections as busy-time blockers.',
    log: deps.log,
    readiness: deps.readiness,
  });
  registerOAuthRoutes(app, deps.ctx);
  registerConnectionRoutes(app, deps.ctx);
  return app;
}
