import type { OAuthCalendarProvider } from '@app/contracts';
import type { LabelledCounter, Resolve, ServiceContext, TargetPolicy } from '@app/service-kit';
import type { BookingsClient } from '../clients/bookings.client.js';
import type { SchedulingClient } from '../clients/scheduling.client.js';
import type { SyncPolicy } from '../domain/sync-decision.js';
import type { KeyRing } from '../domain/token-cipher.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { CalendarReader } from '../clients/calendar-reader.js';
import type { IcsFeedReader } from '../clients/ics-calendar.client.js';
import type { CalendarWriter } from '../clients/calendar-writer.js';
import type { OAuthProvider } from '../clients/oauth-providers.js';
import type { RetrySettings } from '../clients/provider-retry.js';
import type { WriteRetryPolicy } from '../domain/write-decision.js';

/**
 * What every use case works with: the kit's context (pool, bus, relay, clock, log), Prisma for CRUD, the scheduling
 * service, the token key ring, and the providers (OAuth for connecting, readers for syncing, ICS feeds, writers for
 * write-back).
 */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
  scheduling: SchedulingClient;
  /** The bookings an ICS feed shows. */
  bookings: BookingsClient;
  /** The gateway's public address (PUBLIC_BASE_URL): where feed URLs point, and the host of their events' UIDs. */
  publicBaseUrl: string;
  ring: KeyRing;
  stateSecret: string;
  oauth: Record<OAuthCalendarProvider, OAuthProvider>;
  readers: Record<OAuthCalendarProvider, CalendarReader>;
  /** ICS connections: their reader, and the address rules their URLs are checked by at create. */
  icsReader: IcsFeedReader;
  icsTargets: { policy: TargetPolicy; resolve: Resolve };
  /** How far apart regular syncs are, and the jitter's source (injected so that tests can pin it). */
  syncPolicy: SyncPolicy;
  /** Wakes the sync loop (a connection became due). */
  wakeSync: () => void;
  /** `calendar_sync_outcomes_total`: one per finished sync, by provider and outcome. */
  syncOutcomes: LabelledCounter<'provider' | 'outcome'>;
  /** Write-back per provider. */
  writers: Record<OAuthCalendarProvider, CalendarWriter>;
  /** Tries of one write-back step within an attempt (each looks for the event before making one). */
  writeRetry: RetrySettings;
  /** When a failed write is tried again. */
  writePolicy: WriteRetryPolicy;
  /** `calendar_write_outcomes_total`: one per finished write attempt, by provider and outcome. */
  writeOutcomes: LabelledCounter<'provider' | 'outcome'>;
}
