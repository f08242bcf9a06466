import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, data, list, openEvent, startEvents, type Client, type Running } from './support/harness.js';

let running: Running;
let owner: Client;
let stranger: Client;
let eventId: string;
let registrationId: string;
let eventTypeId: string;
beforeAll(async () => {
  running = await startEvents();
  owner = client(running);
  stranger = client(running);
  eventId = String(data(await owner.post('/api/v1/events', openEvent({ slots: 10 }))).id);
  registrationId = String(data(await owner.post(`/api/v1/events/${eventId}/registrations`, { name: 'A', email: 'a@example.com' })).id);
  eventTypeId = String(data(await owner.post('/api/v1/event-types', { title: 'Mine', slug: 'mine', duration: 30 })).id);
});
afterAll(() => running.stop());

describe('another organization', () => {
  it.each([
    ['GET', () => `/api/v1/events/${eventId}`, undefined],
    ['PATCH', () => `/api/v1/events/${eventId}`, { title: 'Hijacked' }],
    ['DELETE', () => `/api/v1/events/${eventId}`, undefined],
    ['GET', () => `/api/v1/events/${eventId}/registrations`, undefined],
    ['POST', () => `/api/v1/events/${eventId}/registrations`, { name: 'B', email: 'b@example.com' }],
    ['DELETE', () => `/api/v1/events/${eventId}/registrations/${registrationId}`, undefined],
    ['GET', () => `/api/v1/event-types/${eventTypeId}`, undefined],
    ['PATCH', () => `/api/v1/event-types/${eventTypeId}`, { title: 'Hijacked' }],
    ['DELETE', () => `/api/v1/event-types/${eventTypeId}`, undefined],
  ] as const)('when it calls %s on a record it does not own, then 404', async (method, url, body) => {
    const reply = await { GET: stranger.get, PATCH: stranger.patch, POST: stranger.post, DELETE: stranger.delete }[method](url(), body);

    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('NOT_FOUND');
  });

  it('when it lists, then it never sees the records of others', async () => {
    expect((await stranger.get('/api/v1/events?include_counts=true')).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await stranger.get('/api/v1/event-types')).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await stranger.get('/api/v1/event-types?active=false')).body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('when the owner looks afterwards, then nothing was changed', async () => {
    const event = data(await owner.get(`/api/v1/events/${eventId}?include_counts=true`));
    expect(event).toMatchObject({ title: 'Workshop', counts: { registrations: 1, remaining: 9 } });
    expect(list(await owner.get(`/api/v1/events/${eventId}/registrations`))).toHaveLength(1);
    expect(data(await owner.get(`/api/v1/event-types/${eventTypeId}`)).title).toBe('Mine');
  });
});
