import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerConnectionRoutes } from './routes/connections.route.js';
import { registerIcsFeedContentRoute } from './routes/ics-feed-content.route.js';
import { registerIcsFeedRoutes } from './routes/ics-feed.route.js';
import { registerOAuthRoutes } from './routes/oauth.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Google and Outlook calendar connections as busy-time blockers. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp({ name: 'calendar-sync', description: 'Google and Outlook calendar connections as busy-time blockers.' }, deps, [
    registerOAuthRoutes,
    registerConnectionRoutes,
    registerIcsFeedRoutes,
    registerIcsFeedContentRoute,
  ]);
}
