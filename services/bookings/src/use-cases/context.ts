import type { Queryable } from '@app/service-kit';
import type { UpstreamChecks } from '../clients/upstream-checks.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** What the use cases need, built once in service.ts (tests build it the same way through the service). */
export interface BookingContext {
  prisma: PrismaClient;
  /** The pool under Prisma, for the create statement (the hot write, sent as a named statement). */
  pool: Queryable;
  upstream: UpstreamChecks;
  /** Wakes the outbox relay after a commit, so events leave at once. */
  wakeRelay: () => void;
  now: () => Date;
}

/** Who is asking: the organization stamped by the gateway, and the request id for correlation. */
export interface Caller {
  organizationId: string;
  requestId: string;
}
