import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, createEvent, data, list, openEvent, startEvents, type Client } from './support/harness.js';

const running = startedForTests(startEvents);

async function eventWithTypes(api: Client, overrides: Record<string, unknown>, types: Record<string, unknown>[]) {
  const event = await createEvent(api, openEvent(overrides));
  const ids: string[] = [];
  for (const type of types) ids.push(String(data(await api.post(`/api/v1/events/${String(event.id)}/ticket-types`, type)).id));
  return { id: String(event.id), types: ids };
}

const attendee = (n: number, more: Record<string, unknown> = {}) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, ...more });

describe('POST /api/v1/events/:id/registrations with ticket types', () => {
  it('when the event has ticket types and none is named, then 400 naming ticket_type_id', async () => {
    const api = client(running);
    const { id } = await eventWithTypes(api, {}, [{ name: 'A', price: 1 }]);

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(1));

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'ticket_type_id is required on an event with ticket types',
      details: [{ path: 'ticket_type_id' }],
    });
  });

  it("when the type is another event's, unknown, or the event has no types, then 400 naming ticket_type_id", async () => {
    const api = client(running);
    const first = await eventWithTypes(api, {}, [{ name: 'A', price: 1 }]);
    const second = await eventWithTypes(api, {}, [{ name: 'B', price: 1 }]);
    const plain = await createEvent(api, openEvent());

    const replies = await Promise.all([
      api.post(`/api/v1/events/${first.id}/registrations`, attendee(1, { ticket_type_id: second.types[0] })),
      api.post(`/api/v1/events/${first.id}/registrations`, attendee(2, { ticket_type_id: '4fc79641-e490-4abf-8c7c-389ce077421e' })),
      api.post(`/api/v1/events/${String(plain.id)}/registrations`, attendee(3, { ticket_type_id: first.types[0] })),
      api.post(`/api/v1/events/${first.id}/registrations`, attendee(4, { ticket_type_id: 'nope' })),
    ]);

    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'ticket_type_id' }] });
    }
    expect(replies[0]?.body.error).toBe('ticket_type_id must be a ticket type of this event');
  });

  it.each([
    ['before its sales start', { sales_start: '2099-01-01T00:00:00Z' }],
    ['after its sales end', { sales_end: '2020-01-01T00:00:00Z' }],
  ])('when the type is %s, then 409 SALES_CLOSED (before SOLD_OUT and EVENT_FULL)', async (_case, window) => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { slots: 0 }, [{ name: 'A', price: 1, quantity: 1, ...window }]);

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0], quantity: 2 }));

    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ code: 'SALES_CLOSED', error: 'Ticket sales are closed for this ticket type' });
  });

  it("when the type's quantity would be exceeded, then SOLD_OUT; when the event's slots would be, EVENT_FULL", async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { slots: 4 }, [
      { name: 'VIP', price: 100, quantity: 2 },
      { name: 'Standard', price: 10 },
    ]);
    const [vip, standard] = types;
    await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: vip, quantity: 2 }));

    const soldOut = await api.post(`/api/v1/events/${id}/registrations`, attendee(2, { ticket_type_id: vip }));
    const fits = await api.post(`/api/v1/events/${id}/registrations`, attendee(3, { ticket_type_id: standard, quantity: 2 }));
    const full = await api.post(`/api/v1/events/${id}/registrations`, attendee(4, { ticket_type_id: standard }));

    expect(soldOut.status).toBe(409);
    expect(soldOut.body).toEqual({ code: 'SOLD_OUT', error: 'Ticket type is sold out' });
    expect(fits.status).toBe(201);
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ code: 'EVENT_FULL', error: 'Event is full' });
  });

  it('when both the type and the event would be exceeded, then SOLD_OUT comes first', async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { slots: 1 }, [{ name: 'A', price: 1, quantity: 1 }]);

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(1, { ticket_type_id: types[0], quantity: 2 }));

    expect(reply.body).toMatchObject({ code: 'SOLD_OUT' });
  });

  it("when many register at once against a type's quantity and the event's slots, then neither is oversold", async () => {
    const api = client(running);
    const { id, types } = await eventWithTypes(api, { slots: 12 }, [
      { name: 'VIP', price: 100, quantity: 5 },
      { name: 'Standard', price: 10 },
    ]);
    const [vip, standard] = types;

    const replies = await Promise.all(
      Array.from({ length: 40 }, (_unused, n) =>
        api.post(`/api/v1/events/${id}/registrations`, attendee(n, { ticket_type_id: n % 2 === 0 ? vip : standard })),
      ),
    );

    const created = replies.filter((reply) => reply.status === 201).map((reply) => data(reply));
    const codes = new Set(replies.filter((reply) => reply.status !== 201).map((reply) => reply.body.code));
    expect(created.filter((registration) => registration.ticket_type_id === vip)).toHaveLength(5);
    expect(created).toHaveLength(12);
    expect([...codes].sort()).toEqual(['EVENT_FULL', 'SOLD_OUT']);
    const counted = list(await api.get(`/api/v1/events/${id}/ticket-types`)).map((type) => type.sold);
    expect(counted).toEqual([5, 7]);
    expect(data(await api.get(`/api/v1/events/${id}?include_counts=true`)).counts).toEqual({
      registrations: 12,
      remaining: 0,
      waitlisted: 0,
      checked_in: 0,
    });
  });
});
