import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeHttpServer, FakeReply, FakeRequest } from './fake-http.js';
import { graphEvent, type FakeOutlookEvent, type GraphExtendedProperty } from './fake-graph.js';

/** The routes of Graph's event writes, as `FakeHttpServer.script` and `requestsTo` name them. */
export type GraphEventRoute = 'graph.events.create' | 'graph.events.find' | 'graph.event.update' | 'graph.event.delete';

/** What the fake needs of an account: its Outlook calendars by id (`primary` = the default one). */
interface OutlookMailbox {
  outlook: Map<string, FakeOutlookEvent[]>;
}

/** `/me/events` (the default calendar) and `/me/calendars/{id}/events`. */
const EVENTS = /^\/graph\/v1\.0\/me\/(?:events|calendars\/([^/]+)\/events)$/;
const EVENT = /^\/graph\/v1\.0\/me\/events\/([^/]+)$/;
const PROPERTY_FILTER = /^singleValueExtendedProperties\/Any\(ep: ep\/id eq '(.+?)' and ep\/value eq '(.*)'\)$/;

const notFound: FakeReply = {
  status: 404,
  body: { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } },
};
const unauthorized: FakeReply = {
  status: 401,
  body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } },
};

/**
 * Microsoft Graph v1.0 event writes: create (POST), find by an extended property (GET with `$filter`), update (PATCH)
 * and delete (DELETE). Created events live in the account's `outlook` calendars, so calendarView shows them (with
 * their extended properties when `$expand` asks). Failures are scripted per route on the server; `answerLate` makes
 * a write that succeeds but whose answer comes after the client gave up.
 */
export class FakeGraphEvents {
  private counter = 0;
  private readonly late = new Map<GraphEventRoute, number[]>();

  constructor(
    private readonly http: FakeHttpServer,
    private readonly mailboxOf: (request: FakeRequest) => OutlookMailbox | undefined,
  ) {}

  register(): void {
    this.route('graph.events.create', 'POST', EVENTS, (mailbox, request) => this.create(mailbox, request));
    this.route('graph.events.find', 'GET', EVENTS, (mailbox, request) => this.find(mailbox, request));
    this.route('graph.event.update', 'PATCH', EVENT, (mailbox, request) => this.update(mailbox, request));
    this.route('graph.event.delete', 'DELETE', EVENT, (mailbox, request) => this.remove(mailbox, request));
  }

  /** The next answer of `route` comes `ms` late, after its work is done (the event is made, changed or gone). */
  answerLate(route: GraphEventRoute, ms: number): void {
    this.late.set(route, [...(this.late.get(route) ?? []), ms]);
  }

  /** Every event of the account that carries the extended property `propertyId` = `value`, in any calendar. */
  eventsMarked(mailbox: OutlookMailbox, propertyId: string, value: string): FakeOutlookEvent[] {
    return [...mailbox.outlook.values()].flat().filter((event) => hasProperty(event, propertyId, value));
  }

  private route(
    name: GraphEventRoute,
    method: string,
    pattern: RegExp,
    work: (mailbox: OutlookMailbox, request: FakeRequest) => FakeReply,
  ) {
    this.http.route(name, method, pattern, async (request) => {
      const mailbox = this.mailboxOf(request);
      if (!mailbox) return unauthorized;
      const reply = work(mailbox, request);
      const delay = this.late.get(name)?.shift();
      if (delay) await sleep(delay);
      return reply;
    });
  }

  private create(mailbox: OutlookMailbox, request: FakeRequest): FakeReply {
    const calendar = calendarOf(mailbox, request);
    if (!calendar) return notFound;
    const input = JSON.parse(request.body) as GraphEventInput;
    const start = instantOf(input.start);
    const end = instantOf(input.end);
    if (!start || !end) return badRequest('start and end must be dateTimeTimeZone values in UTC');
    this.counter += 1;
    // Real ids are long base64 strings, some with `=`: one here too, so callers must encode them in paths.
    const event: FakeOutlookEvent = {
      id: `AAMkAGfake${this.counter}=`,
      showAs: input.showAs ?? 'busy',
      start,
      end,
      subject: input.subject ?? '',
      attendees: input.attendees ?? [],
      singleValueExtendedProperties: input.singleValueExtendedProperties ?? [],
    };
    calendar.push(event);
    return { status: 201, body: graphEvent(event, '') };
  }

  private find(mailbox: OutlookMailbox, request: FakeRequest): FakeReply {
    const calendar = calendarOf(mailbox, request);
    if (!calendar) return notFound;
    const filter = request.url.searchParams.get('$filter');
    const match = filter === null ? null : PROPERTY_FILTER.exec(filter);
    if (filter !== null && !match) return badRequest(`the fake understands only singleValueExtendedProperties filters: ${filter}`);
    const found = match ? calendar.filter((event) => hasProperty(event, match[1] ?? '', (match[2] ?? '').replaceAll("''", "'"))) : calendar;
    const top = Number(request.url.searchParams.get('$top') ?? found.length);
    return { status: 200, body: { value: found.slice(0, top).map((event) => graphEvent(event, '')) } };
  }

  private update(mailbox: OutlookMailbox, request: FakeRequest): FakeReply {
    const event = this.eventOf(mailbox, request);
    if (!event) return notFound;
    const input = JSON.parse(request.body) as Partial<GraphEventInput>;
    const start = input.start ? instantOf(input.start) : event.start;
    const end = input.end ? instantOf(input.end) : event.end;
    if (!start || !end) return badRequest('start and end must be dateTimeTimeZone values in UTC');
    Object.assign(event, {
      start,
      end,
      subject: input.subject ?? event.subject,
      showAs: input.showAs ?? event.showAs,
      attendees: input.attendees ?? event.attendees,
      singleValueExtendedProperties: mergeProperties(event.singleValueExtendedProperties ?? [], input.singleValueExtendedProperties ?? []),
    });
    return { status: 200, body: graphEvent(event, '') };
  }

  private remove(mailbox: OutlookMailbox, request: FakeRequest): FakeReply {
    const event = this.eventOf(mailbox, request);
    if (!event) return notFound;
    for (const calendar of mailbox.outlook.values()) {
      const index = calendar.indexOf(event);
      if (index >= 0) calendar.splice(index, 1);
    }
    return { status: 204, body: undefined };
  }

  private eventOf(mailbox: OutlookMailbox, request: FakeRequest): FakeOutlookEvent | undefined {
    const id = decodeURIComponent(EVENT.exec(request.url.pathname)?.[1] ?? '');
    return [...mailbox.outlook.values()].flat().find((event) => event.id === id);
  }
}

interface GraphEventInput {
  subject?: string;
  showAs?: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  attendees?: FakeOutlookEvent['attendees'];
  singleValueExtendedProperties?: GraphExtendedProperty[];
}

/** The calendar a request names; the default one always exists (made empty when a test set none). */
function calendarOf(mailbox: OutlookMailbox, request: FakeRequest): FakeOutlookEvent[] | undefined {
  const id = EVENTS.exec(request.url.pathname)?.[1];
  if (id) return mailbox.outlook.get(decodeURIComponent(id));
  if (!mailbox.outlook.has('primary')) mailbox.outlook.set('primary', []);
  return mailbox.outlook.get('primary');
}

/** A dateTimeTimeZone in UTC (the only zone the fake takes) as an ISO instant. */
function instantOf(value: { dateTime?: string; timeZone?: string } | undefined): string | null {
  if (!value?.dateTime || value.timeZone !== 'UTC' || /(Z|[+-]\d{2}:\d{2})$/.test(value.dateTime)) return null;
  const instant = new Date(`${value.dateTime}Z`);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

function hasProperty(event: FakeOutlookEvent, propertyId: string, value: string): boolean {
  return (event.singleValueExtendedProperties ?? []).some((p) => p.id.toLowerCase() === propertyId.toLowerCase() && p.value === value);
}

/** PATCH sets the properties it names and keeps the others, as Graph does. */
function mergeProperties(current: GraphExtendedProperty[], changes: GraphExtendedProperty[]): GraphExtendedProperty[] {
  const changed = new Set(changes.map((p) => p.id.toLowerCase()));
  return [...current.filter((p) => !changed.has(p.id.toLowerCase())), ...changes];
}

function badRequest(message: string): FakeReply {
  return { status: 400, body: { error: { code: 'BadRequest', message } } };
}
