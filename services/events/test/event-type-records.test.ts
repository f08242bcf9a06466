import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, createEventType, data, list, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);

describe('GET /api/v1/event-types', () => {
  it('when active is omitted, then only active ones are listed; active=false lists the inactive ones', async () => {
    const api = client(running);
    await createEventType(api, { title: 'One', duration: 10 });
    await createEventType(api, { title: 'Two', duration: 20, is_active: false });
    await createEventType(api, { title: 'Three', duration: 30 });

    const active = await api.get('/api/v1/event-types');
    const inactive = await api.get('/api/v1/event-types?active=false');

    expect(list(active).map((eventType) => eventType.title)).toEqual(['One', 'Three']);
    expect(active.body.meta).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false, next_cursor: null });
    expect(list(inactive).map((eventType) => eventType.title)).toEqual(['Two']);
  });

  it('when limit and offset are given, then that page is returned', async () => {
    const api = client(running);
    for (const title of ['a', 'b', 'c']) await createEventType(api, { title, duration: 10 });

    const reply = await api.get('/api/v1/event-types?limit=1&offset=1');

    expect(list(reply).map((eventType) => eventType.title)).toEqual(['b']);
    expect(reply.body.meta).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true, next_cursor: expect.any(String) });
  });
});

describe('GET /api/v1/event-types/:id', () => {
  it('when it exists (active or not), then it is returned', async () => {
    const api = client(running);
    const created = await createEventType(api, { title: 'Hidden', duration: 10, is_active: false });

    const reply = await api.get(`/api/v1/event-types/${String(created.id)}`);

    expect(reply.status).toBe(200);
    expect(data(reply)).toEqual(created);
  });

  it.each(['bad-id', randomUUID()])('when the id is %s, then 404', async (id) => {
    const reply = await client(running).get(`/api/v1/event-types/${id}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'NOT_FOUND', error: 'Event type not found' });
  });
});

describe('PATCH /api/v1/event-types/:id', () => {
  it('when fields are given, then only they change', async () => {
    const api = client(running);
    const created = await createEventType(api, { title: 'Call', duration: 30, location_details: 'Zoom', color: '#abc' });

    const reply = await api.patch(`/api/v1/event-types/${String(created.id)}`, {
      title: 'Phone call',
      location_type: 'phone',
      location_details: null,
      is_active: false,
    });

    expect(reply.status).toBe(200);
    const { location_details: _dropped, ...rest } = created;
    expect(data(reply)).toEqual({
      ...rest,
      title: 'Phone call',
      location_type: 'phone',
      is_active: false,
      updated_at: data(reply).updated_at,
    });
  });

  it('when the slug is changed to one in use, then 409 SLUG_TAKEN; to a free one, then 200', async () => {
    const api = client(running);
    await createEventType(api, { title: 'Taken', slug: 'taken', duration: 30 });
    const created = await createEventType(api, { title: 'Mine', duration: 30 });

    const clash = await api.patch(`/api/v1/event-types/${String(created.id)}`, { slug: 'taken' });
    const free = await api.patch(`/api/v1/event-types/${String(created.id)}`, { slug: 'free' });

    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ error: 'An event type with this slug already exists', code: 'SLUG_TAKEN' });
    expect(data(free).slug).toBe('free');
  });

  it('when the event type is unknown, then 404', async () => {
    expect((await client(running).patch(`/api/v1/event-types/${randomUUID()}`, { duration: 5 })).status).toBe(404);
  });
});

describe('DELETE /api/v1/event-types/:id', () => {
  it('when it exists, then {id, deleted: true}, it is gone and its slug is free again', async () => {
    const api = client(running);
    const created = await createEventType(api, { title: 'Gone', slug: 'gone', duration: 30 });

    const reply = await api.delete(`/api/v1/event-types/${String(created.id)}`);

    expect(reply.body).toEqual({ data: { id: created.id, deleted: true } });
    expect((await api.get(`/api/v1/event-types/${String(created.id)}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/event-types/${String(created.id)}`)).status).toBe(404);
    await createEventType(api, { title: 'Back', slug: 'gone', duration: 30 });
  });
});
