import { describe, expect, it } from 'vitest';
import { organizationHeaders, preparedForTests, startedForTests } from '@app/service-testing';
import { client, data, openEvent, startEvents, type Client } from './support/harness.js';

const running = startedForTests(startEvents);
const api = preparedForTests(async () => client(running));
/** The organization's event and event type, for the cases that change or read one. */
const owned = preparedForTests(async () => ({
  eventId: String(data(await api.post('/api/v1/events', openEvent({ slots: 100 }))).id),
  eventTypeId: String(data(await api.post('/api/v1/event-types', { title: 'Base', duration: 30 })).id),
}));

const long = 'x'.repeat(10_000);
const event = (overrides: Record<string, unknown>) => ({ title: 'T', start_date: '2031-01-01', ...overrides });
const eventType = (overrides: Record<string, unknown>) => ({ title: 'T', duration: 30, ...overrides });
const person = (overrides: Record<string, unknown>) => ({ name: 'N', email: 'n@example.com', ...overrides });

type Case = [string, 'GET' | 'POST' | 'PATCH', () => string, unknown, string];

/** Every case must be a 400 with the error shape, naming the field in the message. */
const cases: Case[] = [
  ['event: 10k-character title', 'POST', () => '/api/v1/events', event({ title: long }), 'title'],
  ['event: blank title', 'POST', () => '/api/v1/events', event({ title: '   ' }), 'title'],
  ['event: title of the wrong type', 'POST', () => '/api/v1/events', event({ title: 42 }), 'title'],
  ['event: 2026-02-30', 'POST', () => '/api/v1/events', event({ start_date: '2026-02-30' }), 'start_date'],
  ['event: month 13', 'POST', () => '/api/v1/events', event({ start_date: '2026-13-01' }), 'start_date'],
  ['event: date with a time', 'POST', () => '/api/v1/events', event({ start_date: '2026-01-01T10:00:00Z' }), 'start_date'],
  ['event: 24:61', 'POST', () => '/api/v1/events', event({ start_time: '24:61' }), 'start_time'],
  ['event: 24:00 start', 'POST', () => '/api/v1/events', event({ start_time: '24:00' }), 'start_time'],
  ['event: 9:00 end', 'POST', () => '/api/v1/events', event({ end_time: '9:00' }), 'end_time'],
  ['event: invalid zone', 'POST', () => '/api/v1/events', event({ timezone: 'Mars/Olympus_Mons' }), 'timezone'],
  ['event: 10k-character zone', 'POST', () => '/api/v1/events', event({ timezone: long }), 'timezone'],
  ['event: negative cost', 'POST', () => '/api/v1/events', event({ cost: -1 }), 'cost'],
  ['event: three decimals', 'POST', () => '/api/v1/events', event({ cost: 1.234 }), 'cost'],
  ['event: cost as a string', 'POST', () => '/api/v1/events', event({ cost: '10' }), 'cost'],
  ['event: negative slots', 'POST', () => '/api/v1/events', event({ slots: -1 }), 'slots'],
  ['event: fractional slots', 'POST', () => '/api/v1/events', event({ slots: 1.5 }), 'slots'],
  ['event: unknown status', 'POST', () => '/api/v1/events', event({ status: 'archived' }), 'status'],
  ['event: 10k-character description', 'POST', () => '/api/v1/events', event({ description: long }), 'description'],
  ['event: 10k-character location', 'POST', () => '/api/v1/events', event({ location: long }), 'location'],
  ['event: unknown field', 'POST', () => '/api/v1/events', event({ capacity: 10 }), 'capacity'],
  ['event: body is an array', 'POST', () => '/api/v1/events', [event({})], 'body'],
  ['event: body is a string', 'POST', () => '/api/v1/events', 'hello', 'body'],
  ['event patch: 2026-02-30', 'PATCH', () => `/api/v1/events/${owned.eventId}`, { start_date: '2026-02-30' }, 'start_date'],
  ['event patch: null title', 'PATCH', () => `/api/v1/events/${owned.eventId}`, { title: null }, 'title'],
  ['event patch: invalid zone', 'PATCH', () => `/api/v1/events/${owned.eventId}`, { timezone: 'Nowhere' }, 'timezone'],
  ['event patch: unknown status', 'PATCH', () => `/api/v1/events/${owned.eventId}`, { status: 'done' }, 'status'],
  ['event patch: unknown field', 'PATCH', () => `/api/v1/events/${owned.eventId}`, { slot: 3 }, 'slot'],
  ['list: unknown status', 'GET', () => '/api/v1/events?status=open', undefined, 'status'],
  ['list: upcoming=yes', 'GET', () => '/api/v1/events?upcoming=yes', undefined, 'upcoming'],
  ['list: include_counts=1', 'GET', () => '/api/v1/events?include_counts=1', undefined, 'include_counts'],
  ['list: 2026-02-30', 'GET', () => '/api/v1/events?start_date=2026-02-30', undefined, 'start_date'],
  ['list: limit=abc', 'GET', () => '/api/v1/events?limit=abc', undefined, 'limit'],
  ['list: limit=201', 'GET', () => '/api/v1/events?limit=201', undefined, 'limit'],
  ['list: limit=0', 'GET', () => '/api/v1/events?limit=0', undefined, 'limit'],
  ['list: offset=-1', 'GET', () => '/api/v1/events?offset=-1', undefined, 'offset'],
  ['list: repeated limit', 'GET', () => '/api/v1/events?limit=1&limit=2', undefined, 'limit'],
  ['list: unknown parameter', 'GET', () => '/api/v1/events?sort=title', undefined, 'sort'],
  ['get: include_counts=yes', 'GET', () => `/api/v1/events/${owned.eventId}?include_counts=yes`, undefined, 'include_counts'],
  ['registration: missing name', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, { email: 'a@example.com' }, 'name'],
  ['registration: bad email', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ email: 'nope' }), 'email'],
  ['registration: 10k email', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ email: `${long}@x.io` }), 'email'],
  ['registration: 10k name', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ name: long }), 'name'],
  ['registration: quantity 0', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ quantity: 0 }), 'quantity'],
  ['registration: quantity "2"', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ quantity: '2' }), 'quantity'],
  ['registration: unknown field', 'POST', () => `/api/v1/events/${owned.eventId}/registrations`, person({ phone: '1' }), 'phone'],
  ['registrations list: bad status', 'GET', () => `/api/v1/events/${owned.eventId}/registrations?status=gone`, undefined, 'status'],
  ['event type: missing title', 'POST', () => '/api/v1/event-types', { duration: 30 }, 'title'],
  ['event type: missing duration', 'POST', () => '/api/v1/event-types', { title: 'T' }, 'duration'],
  ['event type: duration 0', 'POST', () => '/api/v1/event-types', eventType({ duration: 0 }), 'duration'],
  ['event type: duration -15', 'POST', () => '/api/v1/event-types', eventType({ duration: -15 }), 'duration'],
  ['event type: duration 1.5', 'POST', () => '/api/v1/event-types', eventType({ duration: 1.5 }), 'duration'],
  ['event type: duration "30"', 'POST', () => '/api/v1/event-types', eventType({ duration: '30' }), 'duration'],
  ['event type: location_type zoom', 'POST', () => '/api/v1/event-types', eventType({ location_type: 'zoom' }), 'location_type'],
  ['event type: color red', 'POST', () => '/api/v1/event-types', eventType({ color: 'red' }), 'color'],
  ['event type: color #12345', 'POST', () => '/api/v1/event-types', eventType({ color: '#12345' }), 'color'],
  ['event type: slug with spaces', 'POST', () => '/api/v1/event-types', eventType({ slug: 'My Slug' }), 'slug'],
  ['event type: slug with --', 'POST', () => '/api/v1/event-types', eventType({ slug: 'a--b' }), 'slug'],
  ['event type: 10k title', 'POST', () => '/api/v1/event-types', eventType({ title: long }), 'title'],
  [
    'event type: requires_approval "yes"',
    'POST',
    () => '/api/v1/event-types',
    eventType({ requires_approval: 'yes' }),
    'requires_approval',
  ],
  ['event type: unknown field', 'POST', () => '/api/v1/event-types', eventType({ price: 1 }), 'price'],
  ['event type patch: duration 0', 'PATCH', () => `/api/v1/event-types/${owned.eventTypeId}`, { duration: 0 }, 'duration'],
  ['event type patch: is_active null', 'PATCH', () => `/api/v1/event-types/${owned.eventTypeId}`, { is_active: null }, 'is_active'],
  ['event types list: active=maybe', 'GET', () => '/api/v1/event-types?active=maybe', undefined, 'active'],
  ['event types list: limit=500', 'GET', () => '/api/v1/event-types?limit=500', undefined, 'limit'],
];

describe('bad input on every endpoint', () => {
  it.each(cases)('when %s, then 400 naming it', async (_case, method, url, body, field) => {
    const response = await running.app.inject({
      method,
      url: url(),
      headers: { ...headersOf(api), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

    expect(response.statusCode).toBe(400);
    const reply = response.json<{ error: string; code: string; details: { path: string; message: string }[] }>();
    expect(reply.code).toBe('VALIDATION_ERROR');
    expect(reply.error).toContain(field);
    expect(reply.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.any(String), message: expect.any(String) })]),
    );
  });

  it.each([
    ['POST', '/api/v1/events'],
    ['PATCH', '/api/v1/events/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/v1/event-types'],
  ] as const)('when %s %s gets malformed JSON, then 400', async (method, url) => {
    const response = await running.app.inject({
      method,
      url,
      headers: { ...headersOf(api), 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('when the organization header is missing, then 401', async () => {
    const response = await running.app.inject({ method: 'GET', url: '/api/v1/events' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

function headersOf(apiClient: Client): Record<string, string> {
  return organizationHeaders(apiClient.organizationId);
}
