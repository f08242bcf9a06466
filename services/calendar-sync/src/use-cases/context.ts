import type { CalendarProvider } from '@app/contracts';
import type { SchedulingClient } from '../clients/scheduling.client.js';
import type { ConnectionRepository } from '../db/connection.repository.js';
import type { KeyRing } from '../domain/token-cipher.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { OAuthProvider } from '../providers/oauth-providers.js';

/** Everything the use cases need, built once by the service. */
export interface UseCaseContext {
  prisma: PrismaClient;
  connections: ConnectionRepository;
  scheduling: SchedulingClient;
  ring: KeyRing;
  stateSecret: string;
  oauth: Record<CalendarProvider, OAuthProvider>;
  /** Wakes the sync loop (a connection became due). */
  wakeSync: () => void;
  /** Wakes the outbox relay (an event was committed). */
  wakeRelay: () => void;
  now: () => Date;
}

/** Who is asking: the organization stamped by the gateway, and the request id to pass along. */
export interface Caller {
  organizationId: string;
  requestId: string;
}
