import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerCheckInRoutes } from './routes/check-ins.route.js';
import { registerEventTypeRoutes } from './routes/event-types.route.js';
import { registerEventRoutes } from './routes/events.route.js';
import { registerRegistrationRoutes } from './routes/registrations.route.js';
import { registerTicketTypeRoutes } from './routes/ticket-types.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Events, ticket types, registrations (waitlists, check-ins) and event types. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp(
    { name: 'events', description: 'Events, ticket types, registrations, waitlists and check-ins, and event types.' },
    deps,
    [registerEventRoutes, registerRegistrationRoutes, registerTicketTypeRoutes, registerCheckInRoutes, registerEventTypeRoutes],
  );
}
