import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ServiceApp } from './build-service.js';
import type { ReadinessCheck } from './health.js';

/** What a service's `buildApp` gets from its ServiceDefinition: the process's logger, readiness checks and use-case context. */
export interface AppDeps<Ctx> {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: Ctx;
}

/** Registers a group of routes (a `routes/*.route.ts` file) or a plugin they need, with the service's context. */
export type RouteRegistrar<Ctx> = (app: ServiceApp, ctx: Ctx) => void | Promise<unknown>;

/**
 * A service's HTTP app: the kit's service (errors, health, metrics, OpenAPI) with the service's routes,
 * registered in order. Every service's `app.ts` is this one call, so the app never listens (server.ts does).
 */
export async function buildServiceApp<Ctx>(
  about: { name: string; description: string },
  deps: AppDeps<Ctx>,
  routes: RouteRegistrar<Ctx>[],
): Promise<ServiceApp> {
  const app = await buildService({ ...about, log: deps.log, readiness: deps.readiness });
  for (const register of routes) await register(app, deps.ctx);
  return app;
}
