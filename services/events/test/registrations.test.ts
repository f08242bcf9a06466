import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, data, list, openEvent, startEvents, type Client } from './support/harness.js';

const running = startedForTests(startEvents);

async function event(api: Client, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await api.post('/api/v1/events', openEvent(overrides));
  expect(reply.status).toBe(201);
  return String(data(reply).id);
}

const attendee = (n: number, quantity?: number) => ({
  name: `Guest ${n}`,
  email: `guest${n}@example.com`,
  ...(quantity ? { quantity } : {}),
});

async function counts(api: Client, id: string): Promise<unknown> {
  return data(await api.get(`/api/v1/events/${id}?include_counts=true`)).counts;
}

describe('POST /api/v1/events/:id/registrations', () => {
  it('when the event is published and upcoming, then 201 with one place by default', async () => {
    const api = client(running);
    const id = await event(api, { slots: 5 });

    const reply = await api.post(`/api/v1/events/${id}/registrations`, { name: 'Ann', email: 'ann@example.com' });

    expect(reply.status).toBe(201);
    expect(data(reply)).toMatchObject({
      event_id: id,
      name: 'Ann',
      email: 'ann@example.com',
      quantity: 1,
      status: 'confirmed',
      cancelled_at: null,
    });
    expect(await counts(api, id)).toEqual({ registrations: 1, remaining: 4, waitlisted: 0, checked_in: 0 });
  });

  it.each([
    ['a draft', { status: 'draft' }],
    ['a cancelled event', { status: 'cancelled' }],
    ['a past event', { start_date: '2021-06-01' }],
    ['an event that ended yesterday', { start_date: '2021-06-01', start_time: '23:00', end_time: '01:00' }],
  ])('when the event is %s, then 409 EVENT_NOT_OPEN', async (_case, overrides) => {
    const api = client(running);
    const id = await event(api, overrides);

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(1));

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: 'EVENT_NOT_OPEN', error: 'Event is not open for registration' });
  });

  it('when the places asked for exceed those left, then 409 EVENT_FULL', async () => {
    const api = client(running);
    const id = await event(api, { slots: 5 });
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, 3));

    const tooMany = await api.post(`/api/v1/events/${id}/registrations`, attendee(2, 3));
    const exact = await api.post(`/api/v1/events/${id}/registrations`, attendee(3, 2));
    const full = await api.post(`/api/v1/events/${id}/registrations`, attendee(4));

    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toMatchObject({ code: 'EVENT_FULL', error: 'Event is full' });
    expect(exact.status).toBe(201);
    expect(full.status).toBe(409);
    expect(await counts(api, id)).toEqual({ registrations: 5, remaining: 0, waitlisted: 0, checked_in: 0 });
  });

  it('when slots is null, then there is no limit', async () => {
    const api = client(running);
    const id = await event(api, { slots: null });

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(1, 500));

    expect(reply.status).toBe(201);
    expect(await counts(api, id)).toEqual({ registrations: 500, remaining: null, waitlisted: 0, checked_in: 0 });
  });

  it('when 30 people register at once for 10 places, then exactly 10 get in', async () => {
    const api = client(running);
    const id = await event(api, { slots: 10 });

    const replies = await Promise.all(Array.from({ length: 30 }, (_, n) => api.post(`/api/v1/events/${id}/registrations`, attendee(n))));

    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(10);
    expect(replies.filter((reply) => reply.status === 409 && reply.body.code === 'EVENT_FULL')).toHaveLength(20);
    expect(await counts(api, id)).toEqual({ registrations: 10, remaining: 0, waitlisted: 0, checked_in: 0 });
  });

  it('when groups of 3 register at once for 10 places, then exactly 3 groups get in', async () => {
    const api = client(running);
    const id = await event(api, { slots: 10 });

    const replies = await Promise.all(Array.from({ length: 12 }, (_, n) => api.post(`/api/v1/events/${id}/registrations`, attendee(n, 3))));

    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    expect(await counts(api, id)).toEqual({ registrations: 9, remaining: 1, waitlisted: 0, checked_in: 0 });
  });

  it('when slots are lowered while people register, then places taken never exceed the final slots', async () => {
    const api = client(running);
    const id = await event(api, { slots: 20 });

    const [lowered, ...replies] = await Promise.all([
      api.patch(`/api/v1/events/${id}`, { slots: 5 }),
      ...Array.from({ length: 15 }, (_, n) => api.post(`/api/v1/events/${id}/registrations`, attendee(n))),
    ]);

    const taken = replies.filter((reply) => reply.status === 201).length;
    const finalSlots = lowered?.status === 200 ? 5 : 20;
    expect(taken).toBeLessThanOrEqual(finalSlots);
    expect(await counts(api, id)).toEqual({ registrations: taken, remaining: finalSlots - taken, waitlisted: 0, checked_in: 0 });
  });

  it('when registrations and cancellations race, then the places counted are those of the confirmed registrations', async () => {
    const api = client(running);
    const id = await event(api, { slots: 60 });
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, n) => api.post(`/api/v1/events/${id}/registrations`, attendee(n, 1 + (n % 2)))),
    );
    const toCancel = first.filter((_, n) => n % 3 === 0).map((reply) => String(data(reply).id));
    const second = await Promise.all([
      ...toCancel.map((registrationId) => api.delete(`/api/v1/events/${id}/registrations/${registrationId}`)),
      ...Array.from({ length: 10 }, (_, n) => api.post(`/api/v1/events/${id}/registrations`, attendee(100 + n, 2))),
    ]);
    expect([...first, ...second].every((reply) => reply.status === 200 || reply.status === 201)).toBe(true);

    const active = list(await api.get(`/api/v1/events/${id}/registrations?status=confirmed&limit=200`));
    const taken = active.reduce((sum, registration) => sum + Number(registration.quantity), 0);
    // 20 registrations of 1 or 2 places (30), 7 of them cancelled (10 places), 10 more of 2 places (20).
    expect(taken).toBe(40);
    expect(await counts(api, id)).toEqual({ registrations: taken, remaining: 60 - taken, waitlisted: 0, checked_in: 0 });
    const listed = list(await api.get('/api/v1/events?include_counts=true&limit=200')).find((listedEvent) => listedEvent.id === id);
    expect(listed?.counts).toEqual({ registrations: taken, remaining: 60 - taken, waitlisted: 0, checked_in: 0 });
  });

  it('when an event is listed with counts, then its record is the one GET returns, field for field', async () => {
    // The list is read by its own statement (instants formatted by Postgres); the two must never drift apart.
    const api = client(running);
    const id = await event(api, { slots: 8, cost: 12.5, location: 'Hall B', end_time: '09:30' });
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, 3));
    const single = data(await api.get(`/api/v1/events/${id}?include_counts=true`));
    expect(single.counts).toEqual({ registrations: 3, remaining: 5, waitlisted: 0, checked_in: 0 });
    expect(list(await api.get('/api/v1/events?include_counts=true&limit=200')).find((listed) => listed.id === id)).toEqual(single);
  });

  it('when a write bypasses the service, then the database itself refuses more places than seats', async () => {
    const api = client(running);
    const id = await event(api, { slots: 2 });
    expect((await api.post(`/api/v1/events/${id}/registrations`, attendee(1, 2))).status).toBe(201);

    const overbook = running.infra.pool.query(
      `INSERT INTO registrations (id, organization_id, event_id, name, email, quantity)
       SELECT gen_random_uuid(), organization_id, id, 'Sneaky', 'sneaky@example.com', 1 FROM events WHERE id = $1`,
      [id],
    );
    await expect(overbook).rejects.toMatchObject({ code: '23514', constraint: 'events_places_within_slots' });
    expect(await counts(api, id)).toEqual({ registrations: 2, remaining: 0, waitlisted: 0, checked_in: 0 });
  });

  it('when the event is unknown or malformed, then 404', async () => {
    const api = client(running);
    expect((await api.post(`/api/v1/events/${randomUUID()}/registrations`, attendee(1))).status).toBe(404);
    expect((await api.post('/api/v1/events/42/registrations', attendee(1))).status).toBe(404);
  });
});

describe('GET /api/v1/events/:id/registrations', () => {
  it('when the event has registrations, then they are listed oldest first with meta', async () => {
    const api = client(running);
    const id = await event(api);
    for (const n of [1, 2, 3]) await api.post(`/api/v1/events/${id}/registrations`, attendee(n));

    const reply = await api.get(`/api/v1/events/${id}/registrations?limit=2`);

    expect(reply.status).toBe(200);
    expect(list(reply).map((registration) => registration.name)).toEqual(['Guest 1', 'Guest 2']);
    expect(reply.body.meta).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true, next_cursor: expect.any(String) });
  });

  it('when status is given, then only registrations in it are listed', async () => {
    const api = client(running);
    const id = await event(api);
    const first = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(1)));
    await api.post(`/api/v1/events/${id}/registrations`, attendee(2));
    await api.delete(`/api/v1/events/${id}/registrations/${String(first.id)}`);

    const active = await api.get(`/api/v1/events/${id}/registrations?status=confirmed`);
    const cancelled = await api.get(`/api/v1/events/${id}/registrations?status=cancelled`);

    expect(list(active).map((registration) => registration.name)).toEqual(['Guest 2']);
    expect(list(cancelled).map((registration) => registration.name)).toEqual(['Guest 1']);
  });

  it('when the event is unknown, then 404', async () => {
    expect((await client(running).get(`/api/v1/events/${randomUUID()}/registrations`)).status).toBe(404);
  });
});

describe('DELETE /api/v1/events/:id/registrations/:registrationId', () => {
  it('when the registration is confirmed, then it is cancelled and its places are freed', async () => {
    const api = client(running);
    const id = await event(api, { slots: 4 });
    const registration = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(1, 4)));

    const reply = await api.delete(`/api/v1/events/${id}/registrations/${String(registration.id)}`);

    expect(reply.status).toBe(200);
    expect(data(reply)).toMatchObject({ id: registration.id, status: 'cancelled' });
    expect(data(reply).cancelled_at).toEqual(expect.any(String));
    expect(await counts(api, id)).toEqual({ registrations: 0, remaining: 4, waitlisted: 0, checked_in: 0 });
    expect((await api.post(`/api/v1/events/${id}/registrations`, attendee(2, 4))).status).toBe(201);
  });

  it('when it is already cancelled, then 400 INVALID_TRANSITION', async () => {
    const api = client(running);
    const id = await event(api);
    const registration = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(1)));
    await api.delete(`/api/v1/events/${id}/registrations/${String(registration.id)}`);

    const again = await api.delete(`/api/v1/events/${id}/registrations/${String(registration.id)}`);

    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_TRANSITION', error: 'Cannot transition from cancelled to cancelled' });
  });

  it('when the registration belongs to another event, is unknown or malformed, then 404', async () => {
    const api = client(running);
    const id = await event(api);
    const other = await event(api);
    const registration = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(1)));

    expect((await api.delete(`/api/v1/events/${other}/registrations/${String(registration.id)}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/events/${id}/registrations/${randomUUID()}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/events/${id}/registrations/xyz`)).status).toBe(404);
  });
});
