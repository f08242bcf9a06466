import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeHttpServer, FakeReply, FakeRequest } from './fake-http.js';

/** An event of a fake Google calendar, as events.insert / patch made it. */
export interface FakeGoogleEvent {
  id: string;
  status: 'confirmed' | 'cancelled';
  summary: string | undefined;
  start: string;
  end: string;
  attendees: string[];
  /** extendedProperties.private */
  privateProperties: Record<string, string>;
  /** How many times it was patched. */
  patches: number;
}

/** The events of one account's calendars, by calendar id (a deleted event stays, `cancelled`, as Google keeps it). */
export type FakeGoogleCalendars = Map<string, FakeGoogleEvent[]>;

interface EventsOwner {
  /** Calendars the account has (events in unknown ones are a 404). */
  google: Map<string, unknown>;
  googleEvents: FakeGoogleCalendars;
}

const EVENTS = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/;
const EVENT = /^\/calendar\/v3\/calendars\/([^/]+)\/events\/([^/]+)$/;

const googleError = (status: number, reason: string, message: string): FakeReply => ({
  status,
  body: { error: { code: status, message, errors: [{ domain: 'global', reason, message }] } },
});

interface EventBody {
  summary?: string;
  start?: { dateTime?: string };
  end?: { dateTime?: string };
  attendees?: { email?: string }[];
  status?: 'confirmed' | 'cancelled';
  extendedProperties?: { private?: Record<string, string> };
}

/**
 * Google Calendar v3 events.insert / patch / delete / list on the fake's server, with failure injection: the routes'
 * scripted answers (`http.script('google.events.insert', {status: 503, headers: {'retry-after': '1'}})`) fail
 * without an effect, and `stallAfterEffect` makes a write happen and then answer too late (the client times out).
 */
export class FakeGoogleEvents {
  private readonly stalls = new Map<string, number[]>();

  constructor(private readonly accountOf: (request: FakeRequest) => EventsOwner | undefined) {}

  register(http: FakeHttpServer): void {
    http.route('google.events.list', 'GET', EVENTS, (r) => this.withAccount(r, (a) => this.list(a, r)));
    http.route('google.events.insert', 'POST', EVENTS, (r) => this.withAccount(r, (a) => this.insert(a, r)));
    http.route('google.events.patch', 'PATCH', EVENT, (r) => this.withAccount(r, (a) => this.patch(a, r)));
    http.route('google.events.delete', 'DELETE', EVENT, (r) => this.withAccount(r, (a) => this.remove(a, r)));
  }

  /** The next `count` answers of `route` come `ms` late, after the write took effect (a write that succeeds but times out). */
  stallAfterEffect(route: 'google.events.insert' | 'google.events.patch' | 'google.events.delete', ms: number, count = 1): void {
    this.stalls.set(route, [...(this.stalls.get(route) ?? []), ...Array.from({ length: count }, () => ms)]);
  }

  private async withAccount(request: FakeRequest, handle: (account: EventsOwner) => FakeReply): Promise<FakeReply> {
    const account = this.accountOf(request);
    if (!account) return googleError(401, 'authError', 'Request had invalid authentication credentials.');
    const reply = handle(account);
    const route = `google.events.${{ POST: 'insert', PATCH: 'patch', DELETE: 'delete' }[request.method] ?? 'list'}`;
    const stall = reply.status < 300 ? this.stalls.get(route)?.shift() : undefined;
    if (stall) await sleep(stall);
    return reply;
  }

  private calendarOf(account: EventsOwner, request: FakeRequest): { id: string; events: FakeGoogleEvent[] } | undefined {
    const id = decodeURIComponent((EVENTS.exec(request.url.pathname) ?? EVENT.exec(request.url.pathname))?.[1] ?? '');
    if (!account.google.has(id)) return undefined;
    const events = account.googleEvents.get(id) ?? [];
    account.googleEvents.set(id, events);
    return { id, events };
  }

  private list(account: EventsOwner, request: FakeRequest): FakeReply {
    const calendar = this.calendarOf(account, request);
    if (!calendar) return googleError(404, 'notFound', 'Not Found');
    const params = request.url.searchParams;
    const wanted = params.getAll('privateExtendedProperty').map((pair) => pair.split('=') as [string, string]);
    const from = Date.parse(params.get('timeMin') ?? '') || -Infinity;
    const to = Date.parse(params.get('timeMax') ?? '') || Infinity;
    const items = calendar.events
      .filter((e) => params.get('showDeleted') === 'true' || e.status !== 'cancelled')
      .filter((e) => wanted.every(([key, value]) => e.privateProperties[key] === value))
      .filter((e) => Date.parse(e.start) < to && Date.parse(e.end) > from);
    return { status: 200, body: { kind: 'calendar#events', items: items.map(eventJson) } };
  }

  private insert(account: EventsOwner, request: FakeRequest): FakeReply {
    const calendar = this.calendarOf(account, request);
    if (!calendar) return googleError(404, 'notFound', 'Not Found');
    const body = JSON.parse(request.body || '{}') as EventBody;
    if (!body.start?.dateTime || !body.end?.dateTime) return googleError(400, 'required', 'Missing end time.');
    const event: FakeGoogleEvent = {
      id: randomBytes(13).toString('hex'),
      status: 'confirmed',
      summary: body.summary,
      start: new Date(body.start.dateTime).toISOString(),
      end: new Date(body.end.dateTime).toISOString(),
      attendees: (body.attendees ?? []).flatMap((a) => (a.email ? [a.email] : [])),
      privateProperties: { ...(body.extendedProperties?.private ?? {}) },
      patches: 0,
    };
    calendar.events.push(event);
    return { status: 200, body: eventJson(event) };
  }

  private patch(account: EventsOwner, request: FakeRequest): FakeReply {
    const found = this.eventOf(account, request);
    if ('status' in found) return found;
    const { event } = found;
    const body = JSON.parse(request.body || '{}') as EventBody;
    if (body.summary !== undefined) event.summary = body.summary;
    if (body.start?.dateTime) event.start = new Date(body.start.dateTime).toISOString();
    if (body.end?.dateTime) event.end = new Date(body.end.dateTime).toISOString();
    if (body.attendees) event.attendees = body.attendees.flatMap((a) => (a.email ? [a.email] : []));
    if (body.extendedProperties?.private) event.privateProperties = { ...event.privateProperties, ...body.extendedProperties.private };
    event.patches += 1;
    return { status: 200, body: eventJson(event) };
  }

  private remove(account: EventsOwner, request: FakeRequest): FakeReply {
    const found = this.eventOf(account, request);
    if ('status' in found) return found;
    found.event.status = 'cancelled';
    return { status: 204, body: '' };
  }

  /** The addressed event, or Google's answer when there is none (404) or it was deleted (410). */
  private eventOf(account: EventsOwner, request: FakeRequest): { event: FakeGoogleEvent } | FakeReply {
    const calendar = this.calendarOf(account, request);
    if (!calendar) return googleError(404, 'notFound', 'Not Found');
    const id = decodeURIComponent(EVENT.exec(request.url.pathname)?.[2] ?? '');
    const event = calendar.events.find((e) => e.id === id);
    if (!event) return googleError(404, 'notFound', 'Not Found');
    if (event.status === 'cancelled') return googleError(410, 'deleted', 'Resource has been deleted');
    return { event };
  }
}

function eventJson(event: FakeGoogleEvent) {
  return {
    kind: 'calendar#event',
    id: event.id,
    status: event.status,
    summary: event.summary,
    start: { dateTime: event.start, timeZone: 'UTC' },
    end: { dateTime: event.end, timeZone: 'UTC' },
    attendees: event.attendees.map((email) => ({ email, responseStatus: 'needsAction' })),
    extendedProperties: { private: event.privateProperties },
  };
}
