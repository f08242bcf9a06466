import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConditionalRequests, organizationHeaders, recordRequests } from '@app/service-testing';
import { client, data, list, openEvent, startEvents, type Running } from './support/harness.js';

let running: Running;
beforeAll(async () => {
  running = await startEvents();
});
afterAll(() => running.stop());

/** A new record of an organization of its own: `path` answers its id, the record lives at `path/<id>`. */
async function created(path: string, body: Record<string, unknown>, organizationId?: string) {
  const headers = organizationHeaders(organizationId);
  const reply = await running.app.inject({ method: 'POST', url: path, headers, payload: body });
  expect(reply.statusCode).toBe(201);
  const id = String(reply.json<{ data: { id: string } }>().data.id);
  return { id, headers, calls: recordRequests(running.app, headers, `${path}/${id}`) };
}

describeConditionalRequests([
  {
    name: 'an event',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const { calls } = await created('/api/v1/events', openEvent({ slots: 20 }));
      return { ...calls, patch: (headers, n) => calls.patch(headers, { title: `Workshop ${n}` }), state: calls.data };
    },
  },
  {
    name: 'an event type',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const { calls } = await created('/api/v1/event-types', { title: 'Intro call', duration: 30 });
      return { ...calls, patch: (headers, n) => calls.patch(headers, { duration: 30 + n }), state: calls.data };
    },
  },
  {
    name: 'a registration',
    has: { get: true, remove: true },
    async arrange() {
      const api = client(running);
      const event = String(data(await api.post('/api/v1/events', openEvent({ slots: 5 }))).id);
      const path = `/api/v1/events/${event}/registrations`;
      const { id, calls } = await created(path, { name: 'Ann', email: 'ann@example.com' }, api.organizationId);
      const state = async () => list(await api.get(path)).find((registration) => registration.id === id);
      return { get: calls.get, remove: calls.remove, state };
    },
  },
  {
    name: 'a ticket type',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const api = client(running);
      const event = String(data(await api.post('/api/v1/events', openEvent({ slots: 5 }))).id);
      const { calls } = await created(`/api/v1/events/${event}/ticket-types`, { name: 'Standard', price: 10 }, api.organizationId);
      return { ...calls, patch: (headers, n) => calls.patch(headers, { quantity: 10 + n }), state: calls.data };
    },
  },
]);

describe("an event's ETag and its places taken", () => {
  it('when a registration takes places or frees them, then the ETag changes, with counts or without', async () => {
    const api = client(running);
    const { id, calls } = await created('/api/v1/events', openEvent({ slots: 5 }), api.organizationId);
    const withCounts = recordRequests(running.app, organizationHeaders(api.organizationId), `/api/v1/events/${id}?include_counts=true`);
    const tags = async () => [String((await calls.get({})).headers.etag), String((await withCounts.get({})).headers.etag)];
    const before = await tags();
    expect(before[0]).toBe(before[1]); // one record, one version: an If-Match from either read is the PATCH's

    const registration = await api.post(`/api/v1/events/${id}/registrations`, { name: 'Bo', email: 'bo@example.com', quantity: 2 });
    const registered = await tags();
    await api.delete(`/api/v1/events/${id}/registrations/${String(data(registration).id)}`);
    const freed = await tags();

    expect(new Set([...before, ...registered, ...freed]).size).toBe(3);
    expect((await withCounts.get({ 'if-none-match': before[1]! })).status).toBe(200);
    expect((await withCounts.get({ 'if-none-match': freed[1]! })).status).toBe(304);
    const stale = await calls.patch({ 'if-match': before[0]! }, { slots: 1 });
    expect([stale.status, JSON.parse(stale.body).code]).toEqual([412, 'PRECONDITION_FAILED']);
  });
});
