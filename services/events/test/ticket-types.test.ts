import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, createEvent, data, list, openEvent, startEvents, type Client } from './support/harness.js';
import { keyClient } from './support/key-client.js';

const running = startedForTests(startEvents);

async function eventWithTypes(api: Client, overrides: Record<string, unknown>, types: Record<string, unknown>[]) {
  const event = await createEvent(api, openEvent(overrides));
  const created = [];
  for (const type of types) {
    const reply = await api.post(`/api/v1/events/${String(event.id)}/ticket-types`, type);
    expect(reply.status).toBe(201);
    created.push(data(reply));
  }
  return { id: String(event.id), types: created.map((type) => String(type.id)) };
}

const attendee = (n: number, more: Record<string, unknown> = {}) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, ...more });

describe('ticket types: /api/v1/events/:id/ticket-types', () => {
  it('when created, then 201 with the record; GET, the list, PATCH and DELETE follow it', async () => {
    const api = client(running);
    const event = await createEvent(api, openEvent());
    const base = `/api/v1/events/${String(event.id)}/ticket-types`;

    const created = await api.post(base, { name: 'Early bird', price: 19.99, quantity: 10, sales_end: '2031-05-01T00:00:00+02:00' });
    const id = String(data(created).id);
    const read = await api.get(`${base}/${id}`);
    const patched = await api.patch(`${base}/${id}`, { price: 25, quantity: null });
    const listed = await api.get(base);
    const deleted = await api.delete(`${base}/${id}`);

    expect(created.status).toBe(201);
    expect(data(created)).toEqual({
      id,
      event_id: event.id,
      name: 'Early bird',
      price: 19.99,
      quantity: 10,
      sales_start: null,
      sales_end: '2031-04-30T22:00:00.000Z',
      sold: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(data(read)).toEqual(data(created));
    expect(data(patched)).toMatchObject({ price: 25, quantity: null });
    expect(list(listed)).toEqual([data(patched)]);
    expect(deleted).toEqual({ status: 200, body: { data: { id, deleted: true } } });
    expect((await api.get(`${base}/${id}`)).status).toBe(404);
  });

  it.each([
    ['no name', { price: 1 }, 'name'],
    ['no price', { name: 'A' }, 'price'],
    ['three decimals', { name: 'A', price: 1.234 }, 'price'],
    ['quantity 0', { name: 'A', price: 1, quantity: 0 }, 'quantity'],
    ['a bare local time', { name: 'A', price: 1, sales_start: '2031-01-01T10:00:00' }, 'sales_start'],
    [
      'an end before the start',
      { name: 'A', price: 1, sales_start: '2031-01-02T00:00:00Z', sales_end: '2031-01-01T00:00:00Z' },
      'sales_end',
    ],
  ])('when the body has %s, then 400 naming the field', async (_case, body, field) => {
    const api = client(running);
    const event = await createEvent(api, openEvent());

    const reply = await api.post(`/api/v1/events/${String(event.id)}/ticket-types`, body);

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(reply.body.error).toContain(field);
  });

  it("when the event is unknown or another organization's, then 404", async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, {}, [{ name: 'A', price: 1 }]);
    const other = client(running);

    expect((await other.post(`/api/v1/events/${id}/ticket-types`, { name: 'A', price: 1 })).status).toBe(404);
    expect((await other.get(`/api/v1/events/${id}/ticket-types`)).status).toBe(404);
    expect((await other.get(`/api/v1/events/${id}/ticket-types/${types[0]}`)).status).toBe(404);
    expect((await api.get(`/api/v1/events/${id}/ticket-types/not-a-uuid`)).status).toBe(404);
  });

  it('when registrations are taken, then `sold` counts the confirmed places only, in GET and the list', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { slots: 10 }, [{ name: 'A', price: 10, quantity: 5 }]);
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0], quantity: 2 }));
    const cancelled = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(2, { ticket_type_id: types[0] })));
    await api.delete(`/api/v1/events/${id}/registrations/${String(cancelled.id)}`);

    expect(data(await api.get(`/api/v1/events/${id}/ticket-types/${types[0]}`)).sold).toBe(2);
    expect(list(await api.get(`/api/v1/events/${id}/ticket-types`)).map((type) => type.sold)).toEqual([2]);
  });

  it('when the quantity is lowered below the places sold, then 409 and nothing changes', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, {}, [{ name: 'A', price: 10, quantity: 5 }]);
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0], quantity: 3 }));

    const lowered = await api.patch(`/api/v1/events/${id}/ticket-types/${types[0]}`, { quantity: 2 });
    const exact = await api.patch(`/api/v1/events/${id}/ticket-types/${types[0]}`, { quantity: 3 });

    expect(lowered.status).toBe(409);
    expect(lowered.body).toEqual({ code: 'CONFLICT', error: 'quantity cannot be lower than the 3 places already sold' });
    expect(exact.status).toBe(200);
    expect(data(exact)).toMatchObject({ quantity: 3, sold: 3 });
  });

  it('when a type has a confirmed or waitlisted registration, then DELETE is 409 TICKET_TYPE_IN_USE; once cancelled, it goes', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { waitlist: true }, [{ name: 'A', price: 1, quantity: 1 }]);
    const confirmed = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0] })));
    const waitlisted = data(await api.post(`/api/v1/events/${id}/registrations`, attendee(2, { ticket_type_id: types[0] })));

    const refused = await api.delete(`/api/v1/events/${id}/ticket-types/${types[0]}`);
    await api.delete(`/api/v1/events/${id}/registrations/${String(waitlisted.id)}`);
    const stillRefused = await api.delete(`/api/v1/events/${id}/ticket-types/${types[0]}`);
    await api.delete(`/api/v1/events/${id}/registrations/${String(confirmed.id)}`);
    const deleted = await api.delete(`/api/v1/events/${id}/ticket-types/${types[0]}`);

    expect(waitlisted.status).toBe('waitlisted');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'TICKET_TYPE_IN_USE' });
    expect(stillRefused.body).toMatchObject({ code: 'TICKET_TYPE_IN_USE' });
    expect(deleted.status).toBe(200);
    const kept = data(await api.get(`/api/v1/events/${id}/registrations/${String(confirmed.id)}`));
    expect(kept).toMatchObject({ status: 'cancelled', ticket_type_id: null });
  });

  it('when an event with types and registrations is deleted, then its types go with it', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, {}, [{ name: 'A', price: 1 }]);
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0] }));

    expect((await api.delete(`/api/v1/events/${id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/events/${id}/ticket-types/${types[0]}`)).status).toBe(404);
  });

  it('when paged by cursor and filtered by updated_since, then every type shows once', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(
      api,
      {},
      [1, 2, 3].map((n) => ({ name: `T${n}`, price: n })),
    );

    const first = await api.get(`/api/v1/events/${id}/ticket-types?limit=2`);
    const cursor = String((first.body.meta as { next_cursor: string }).next_cursor);
    const second = await api.get(`/api/v1/events/${id}/ticket-types?limit=2&cursor=${encodeURIComponent(cursor)}`);
    const since = String(list(first)[1]?.updated_at);
    const changed = await api.get(`/api/v1/events/${id}/ticket-types?updated_since=${encodeURIComponent(since)}`);

    expect([...list(first), ...list(second)].map((type) => type.id)).toEqual(types);
    expect((second.body.meta as { next_cursor: unknown }).next_cursor).toBeNull();
    expect(list(changed).map((type) => type.id)).toEqual(types.slice(1));
  });

  it('when a publishable key calls the ticket-type endpoints, then 403; it registers with a ticket type', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, {}, [{ name: 'A', price: 1 }]);
    const browser = keyClient(running, api.organizationId, 'publishable');

    const listed = await browser.get(`/api/v1/events/${id}/ticket-types`);
    const registered = await browser.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0] }));

    expect(listed.status).toBe(403);
    expect(registered.status).toBe(201);
    expect(registered.body.data).toMatchObject({ status: 'confirmed', ticket_type_id: types[0], waitlist_position: null });
  });
});
