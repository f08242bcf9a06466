import { MAX_CHANGES_WAIT_SECONDS } from '@app/contracts';
import type { Config } from '../config.js';

/** The services behind the gateway; each is the audience of its own caller assertions. */
export const SERVICE_NAMES = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Which service owns which path prefix. `public` prefixes need no API key (one, if sent, is still checked). `holdsMs`:
 * the longest a request may be held open on purpose (the change feed's `wait`), added to the upstream timeout. A
 * prefix may name a path parameter (`:id`): the router prefers it to a shorter prefix's wildcard, so a schedule's
 * `ics-feed` goes to calendar-sync while the rest of `/api/v1/schedules` stays scheduling's.
 */
export const ROUTE_TABLE: readonly { prefix: string; service: ServiceName; public?: boolean; holdsMs?: number }[] = [
  { prefix: '/api/v1/bookings', service: 'bookings' },
  { prefix: '/api/v1/holds', service: 'bookings' },
  { prefix: '/api/v1/booking-series', service: 'bookings' },
  { prefix: '/api/v1/schedules', service: 'scheduling' },
  { prefix: '/api/v1/schedules/:id/ics-feed', service: 'calendar-sync' },
  { prefix: '/api/bookings/slots', service: 'scheduling', public: true },
  { prefix: '/api/v1/products', service: 'catalog' },
  { prefix: '/api/v1/media', service: 'catalog' },
  { prefix: '/api/v1/categories', service: 'catalog' },
  { prefix: '/api/v1/inventory', service: 'catalog' },
  { prefix: '/media', service: 'catalog', public: true },
  { prefix: '/api/v1/events', service: 'events' },
  { prefix: '/api/v1/event-types', service: 'events' },
  { prefix: '/api/v1/calendar-connections', service: 'calendar-sync' },
  { prefix: '/api/calendar-connections', service: 'calendar-sync', public: true },
  // A feed's secret URL: calendar apps subscribe with no key, the token in the path is the credential.
  { prefix: '/ics', service: 'calendar-sync', public: true },
  { prefix: '/api/v1/webhook-endpoints', service: 'webhooks' },
  { prefix: '/api/v1/changes', service: 'webhooks', holdsMs: MAX_CHANGES_WAIT_SECONDS * 1000 },
  ...SERVICE_NAMES.map((service) => ({
    prefix: `/api/v1/ping/${service}`,
    service,
  })),
];

export function upstreamsOf(config: Config): Record<ServiceName, string[]> {
  return {
    bookings: config.BOOKINGS_URL,
    scheduling: config.SCHEDULING_URL,
    catalog: config.CATALOG_URL,
    events: config.EVENTS_URL,
    'calendar-sync': config.CALENDAR_SYNC_URL,
    webhooks: config.WEBHOOKS_URL,
  };
}

/** True for a path under a public prefix of the route table (no key needed). */
export function isPublicPath(path: string): boolean {
  return ROUTE_TABLE.some((route) => route.public && (path === route.prefix || path.startsWith(`${route.prefix}/`)));
}
