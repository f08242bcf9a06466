import { describe, expect, it } from 'vitest';
import { preparedForTests, startedForTests } from '@app/service-testing';
import { client, data, list, openEvent, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);
const owner = preparedForTests(async () => client(running));
/** A client of another organization. */
const stranger = preparedForTests(async () => client(running));
/** What the owner has: an event with one registration, and an event type. */
const owned = preparedForTests(async () => {
  const eventId = String(data(await owner.post('/api/v1/events', openEvent({ slots: 10 }))).id);
  const registration = await owner.post(`/api/v1/events/${eventId}/registrations`, { name: 'A', email: 'a@example.com' });
  const eventType = await owner.post('/api/v1/event-types', { title: 'Mine', slug: 'mine', duration: 30 });
  return { eventId, registrationId: String(data(registration).id), eventTypeId: String(data(eventType).id) };
});

describe('another organization', () => {
  it.each([
    ['GET', () => `/api/v1/events/${owned.eventId}`, undefined],
    ['PATCH', () => `/api/v1/events/${owned.eventId}`, { title: 'Hijacked' }],
    ['DELETE', () => `/api/v1/events/${owned.eventId}`, undefined],
    ['GET', () => `/api/v1/events/${owned.eventId}/registrations`, undefined],
    ['POST', () => `/api/v1/events/${owned.eventId}/registrations`, { name: 'B', email: 'b@example.com' }],
    ['DELETE', () => `/api/v1/events/${owned.eventId}/registrations/${owned.registrationId}`, undefined],
    ['GET', () => `/api/v1/event-types/${owned.eventTypeId}`, undefined],
    ['PATCH', () => `/api/v1/event-types/${owned.eventTypeId}`, { title: 'Hijacked' }],
    ['DELETE', () => `/api/v1/event-types/${owned.eventTypeId}`, undefined],
  ] as const)('when it calls %s on a record it does not own, then 404', async (method, url, body) => {
    expect(await stranger.request(method, url(), body)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('when it lists, then it never sees the records of others', async () => {
    expect((await stranger.get('/api/v1/events?include_counts=true')).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await stranger.get('/api/v1/event-types')).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await stranger.get('/api/v1/event-types?active=false')).body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('when the owner looks afterwards, then nothing was changed', async () => {
    const event = data(await owner.get(`/api/v1/events/${owned.eventId}?include_counts=true`));
    expect(event).toMatchObject({ title: 'Workshop', counts: { registrations: 1, remaining: 9 } });
    expect(list(await owner.get(`/api/v1/events/${owned.eventId}/registrations`))).toHaveLength(1);
    expect(data(await owner.get(`/api/v1/event-types/${owned.eventTypeId}`)).title).toBe('Mine');
  });
});
