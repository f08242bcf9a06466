import type { z } from 'zod';
import { bookingFeedRequest } from './booking-feed.js';
import { BOOKINGS_STREAM } from './bookings.js';
import { CALENDAR_STREAM } from './calendar.js';
import { CATALOG_STREAM } from './catalog.js';
import { EVENTS_STREAM, eventTypeGetRequest } from './events.js';
import { IDENTITY_STREAM } from './identity-events.js';
import type { RequestContract, StreamContract } from './messaging.js';
import { availabilityCheckRequest, scheduleGetRequest, SCHEDULING_STREAM } from './scheduling.js';

/** A durable JetStream consumer of another service's stream. The name must stay stable across deploys. */
export interface ConsumerTopology {
  durable: string;
  stream: StreamContract;
}

/**
 * An in-order reader of another service's stream (the change feed's): a consumer without acks under this name, made
 * again at the stream sequence the reader resumes from (which it keeps in its own schema), so it reads every message
 * once and in order. Its rights cover that one consumer name.
 */
export interface ReaderTopology {
  name: string;
  stream: StreamContract;
}

/**
 * What one service does on NATS. The services build their relays and consumers from it, and each service's NATS
 * user gets exactly these rights (the kit's `natsPermissions`), so a subject missing here is refused by the server.
 */
export interface ServiceTopology {
  /** The stream of its domain events, published through its outbox relay (which creates and updates the stream). */
  publishes: StreamContract | null;
  /** The requests it answers, as endpoints of its NATS micro service. */
  serves: readonly RequestContract<z.ZodType, z.ZodType>[];
  /** The requests it sends. */
  calls: readonly RequestContract<z.ZodType, z.ZodType>[];
  /** Its durable consumers, by a name the service's code refers to them by. */
  consumes: Readonly<Record<string, ConsumerTopology>>;
  /** Its in-order readers, by a name the service's code refers to them by. */
  reads?: Readonly<Record<string, ReaderTopology>>;
}

/** What every publisher serves besides its own requests: its relay answers its stream's change-feed watermark. */
const watermarkOf = (stream: StreamContract) => stream.watermark.request;

/**
 * The streams whose events are public (webhooks and the change feed): every publisher's, by the name the webhooks
 * service's consumers and readers are known by. A stream added here gets its consumer, its reader and their rights.
 */
const PUBLIC_STREAMS = {
  bookings: BOOKINGS_STREAM,
  scheduling: SCHEDULING_STREAM,
  events: EVENTS_STREAM,
  catalog: CATALOG_STREAM,
  calendar: CALENDAR_STREAM,
  identity: IDENTITY_STREAM,
} as const;
type PublicStream = keyof typeof PUBLIC_STREAMS;

/** One `make` per public stream, under its name. */
function perPublicStream<T>(make: (name: PublicStream, stream: StreamContract) => T): Record<PublicStream, T> {
  const entries = Object.entries(PUBLIC_STREAMS).map(([name, stream]) => [name, make(name as PublicStream, stream)]);
  return Object.fromEntries(entries) as Record<PublicStream, T>;
}

export const NATS_TOPOLOGY = {
  // Publishes its keys' creations and revocations (its outbox relay); NATS is also in its readiness.
  gateway: { publishes: IDENTITY_STREAM, serves: [watermarkOf(IDENTITY_STREAM)], calls: [], consumes: {} },
  bookings: {
    publishes: BOOKINGS_STREAM,
    // The bookings of calendar-sync's ICS feeds.
    serves: [bookingFeedRequest, watermarkOf(BOOKINGS_STREAM)],
    calls: [availabilityCheckRequest, eventTypeGetRequest],
    // The state of each booking's provider event (write-back), for the record's `calendar_event`.
    consumes: { calendar: { durable: 'bookings-calendar', stream: CALENDAR_STREAM } },
  },
  scheduling: {
    publishes: SCHEDULING_STREAM,
    serves: [scheduleGetRequest, availabilityCheckRequest, watermarkOf(SCHEDULING_STREAM)],
    calls: [],
    consumes: {
      bookings: { durable: 'scheduling-bookings', stream: BOOKINGS_STREAM },
      calendar: { durable: 'scheduling-calendar', stream: CALENDAR_STREAM },
      // Event types' durations and activity, for slots by event type (`eventTypeId`), with no request per slot call.
      eventTypes: { durable: 'scheduling-event-types', stream: EVENTS_STREAM },
    },
  },
  catalog: { publishes: CATALOG_STREAM, serves: [watermarkOf(CATALOG_STREAM)], calls: [], consumes: {} },
  events: { publishes: EVENTS_STREAM, serves: [eventTypeGetRequest, watermarkOf(EVENTS_STREAM)], calls: [], consumes: {} },
  'calendar-sync': {
    publishes: CALENDAR_STREAM,
    serves: [watermarkOf(CALENDAR_STREAM)],
    // The schedule a connection or feed is for; the bookings an ICS feed shows.
    calls: [scheduleGetRequest, bookingFeedRequest],
    // The bookings' states, written back to the connected calendars that ask for it (write_calendar_id).
    consumes: { bookings: { durable: 'calendar-sync-bookings', stream: BOOKINGS_STREAM } },
  },
  // Turns the domain events of every stream into signed HTTP deliveries and the change feed; publishes nothing itself.
  webhooks: {
    publishes: null,
    serves: [],
    calls: Object.values(PUBLIC_STREAMS).map(watermarkOf),
    // Durable names stay as they were deployed: `webhooks-<stream>`.
    consumes: perPublicStream((name, stream): ConsumerTopology => ({ durable: `webhooks-${name}`, stream })),
    // The change feed's ingesters, one per stream, each reading its stream in order (services/webhooks, feed-ingest).
    reads: perPublicStream((name, stream): ReaderTopology => ({ name: `webhooks-feed-${name}`, stream })),
  },
} as const satisfies Record<string, ServiceTopology>;

export type ServiceName = keyof typeof NATS_TOPOLOGY;
export const SERVICE_NAMES = Object.keys(NATS_TOPOLOGY) as ServiceName[];

/** The topology of a service by name, or undefined for a name that is not one of the seven (kit tests' buses). */
export function topologyOf(service: string): ServiceTopology | undefined {
  return Object.hasOwn(NATS_TOPOLOGY, service) ? NATS_TOPOLOGY[service as ServiceName] : undefined;
}
