import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { registerDeliveryRoutes } from './routes/deliveries.route.js';
import { registerEndpointRoutes } from './routes/endpoints.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Webhook endpoints and the signed deliveries of domain events to them. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp({ name: 'webhooks', description: 'Webhook endpoints and signed deliveries of domain events.' }, deps, [
    registerEndpointRoutes,
    registerDeliveryRoutes,
  ]);
}
