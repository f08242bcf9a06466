import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Bus } from './nats/bus.js';
import type { Infrastructure } from './runtime/infrastructure.js';

/**
 * What every service's use cases work with; a service's `UseCaseContext` extends it with its own Prisma
 * client and neighbours. Built once in service.ts; tests build it the same way, through the service.
 */
export interface ServiceContext {
  /** The service's pool, for SQL (`query`, `withTransaction`); Prisma's adapter runs over the same pool. */
  pool: pg.Pool;
  bus: Bus;
  /** Woken after a commit that recorded events, so they leave at once rather than at the relay's next poll. */
  relay: { wake(): void };
  /** Injected so that tests can pin "now". */
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The base context of a service over its infrastructure, with its outbox relay and (by default) the real clock. */
export function serviceContext(infra: Infrastructure, relay: { wake(): void }, now: () => Date = () => new Date()): ServiceContext {
  return { pool: infra.pool, bus: infra.bus, relay, now, log: infra.log };
}
