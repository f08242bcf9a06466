/** A service of the stack: its folder under services/, its port's offset from the gateway's, the gateway's variable for its URL. */
export interface StackService {
  name: string;
  offset: number;
  urlVar: string;
}

/** In start order; the gateway starts last, given every service's URL. */
export const SERVICES: readonly StackService[] = [
  { name: 'scheduling', offset: 2, urlVar: 'SCHEDULING_URL' },
  { name: 'events', offset: 4, urlVar: 'EVENTS_URL' },
  { name: 'bookings', offset: 1, urlVar: 'BOOKINGS_URL' },
  { name: 'catalog', offset: 3, urlVar: 'CATALOG_URL' },
  { name: 'calendar-sync', offset: 5, urlVar: 'CALENDAR_SYNC_URL' },
  { name: 'webhooks', offset: 6, urlVar: 'WEBHOOKS_URL' },
];
