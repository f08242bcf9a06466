import type { ServiceContext } from '@app/service-kit';
import type { EventsClient } from '../clients/events.client.js';
import type { SchedulingClient } from '../clients/scheduling.client.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * What the use cases work with: the kit's context (pool, relay, clock), the Prisma client for plain reads,
 * and the services whose answers a booking needs (asked together in upstream-checks.ts). Built once in
 * service.ts (tests build it the same way, through the service).
 */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
  scheduling: SchedulingClient;
  events: EventsClient;
}
