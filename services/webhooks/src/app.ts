import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerChangeRoutes } from './routes/changes.route.js';
import { registerDeliveryRoutes } from './routes/deliveries.route.js';
import { registerEndpointRoutes } from './routes/endpoints.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Webhook endpoints, the signed deliveries of domain events to them, and the change feed. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp(
    { name: 'webhooks', description: 'Webhook endpoints, signed deliveries of domain events, and the ordered change feed.' },
    deps,
    [registerEndpointRoutes, registerDeliveryRoutes, registerChangeRoutes],
  );
}
