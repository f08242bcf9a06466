import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './support/domain-events.js';
import { client, createEvent, data, list, openEvent, startEvents, type Client, type Running } from './support/harness.js';

let running: Running;
let listener: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  running = await startEvents();
  listener = await listen(running, ['events.registration.promoted']);
});
afterAll(async () => {
  listener.close();
  await running.stop();
});

const attendee = (n: number, more: Record<string, unknown> = {}) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, ...more });

async function register(api: Client, eventId: string, n: number, more: Record<string, unknown> = {}) {
  const reply = await api.post(`/api/v1/events/${eventId}/registrations`, attendee(n, more));
  expect(reply.status).toBe(201);
  return data(reply);
}

async function statusOf(api: Client, eventId: string, registration: Record<string, unknown>) {
  const record = data(await api.get(`/api/v1/events/${eventId}/registrations/${String(registration.id)}`));
  return [record.status, record.waitlist_position];
}

const counts = async (api: Client, id: string) => data(await api.get(`/api/v1/events/${id}?include_counts=true`)).counts;

describe('waitlists', () => {
  it('when the event is full and has a waitlist, then 201 waitlisted at positions in arrival order, not counted as places', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 2, waitlist: true }))).id);
    await register(api, id, 1, { quantity: 2 });

    const first = await register(api, id, 2);
    const second = await register(api, id, 3, { quantity: 3 });

    expect(first).toMatchObject({ status: 'waitlisted', waitlist_position: 1 });
    expect(second).toMatchObject({ status: 'waitlisted', waitlist_position: 2 });
    expect(await counts(api, id)).toEqual({ registrations: 2, remaining: 0, waitlisted: 4, checked_in: 0 });
    const waiting = list(await api.get(`/api/v1/events/${id}/registrations?status=waitlisted`));
    expect(waiting.map((registration) => registration.id)).toEqual([first.id, second.id]);
  });

  it('when the event has no waitlist, then a full event is still 409 EVENT_FULL', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 1 }))).id);
    await register(api, id, 1);

    const reply = await api.post(`/api/v1/events/${id}/registrations`, attendee(2));

    expect(reply.body).toMatchObject({ code: 'EVENT_FULL' });
  });

  it('when a confirmed registration is cancelled, then the head of the list is promoted, once, with a promoted event', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 1, waitlist: true }))).id);
    const confirmed = await register(api, id, 1);
    const head = await register(api, id, 2);
    const next = await register(api, id, 3);

    await api.delete(`/api/v1/events/${id}/registrations/${String(confirmed.id)}`);

    expect(await statusOf(api, id, head)).toEqual(['confirmed', null]);
    expect(await statusOf(api, id, next)).toEqual(['waitlisted', 2]);
    expect(await counts(api, id)).toEqual({ registrations: 1, remaining: 0, waitlisted: 1, checked_in: 0 });
    const [promoted] = await listener.forOrganization(api.organizationId, 1);
    expect(promoted).toMatchObject({
      type: 'events.registration.promoted',
      data: { id: head.id, event_id: id, quantity: 1, record: { id: head.id, status: 'confirmed', waitlist_position: null } },
    });
  });

  it('when the head does not fit, then nobody behind it is promoted, and a newcomer that would fit queues behind', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 3, waitlist: true }))).id);
    const one = await register(api, id, 1);
    await register(api, id, 2, { quantity: 2 });
    const head = await register(api, id, 3, { quantity: 2 });
    const small = await register(api, id, 4);

    await api.delete(`/api/v1/events/${id}/registrations/${String(one.id)}`);
    const newcomer = await register(api, id, 5);

    expect(await statusOf(api, id, head)).toEqual(['waitlisted', 1]);
    expect(await statusOf(api, id, small)).toEqual(['waitlisted', 2]);
    expect(newcomer).toMatchObject({ status: 'waitlisted', waitlist_position: 3 });
    expect(await counts(api, id)).toEqual({ registrations: 2, remaining: 1, waitlisted: 4, checked_in: 0 });
  });

  it('when a waiting registration that blocked the head is cancelled, then those behind it that fit are promoted', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 2, waitlist: true }))).id);
    await register(api, id, 1);
    const head = await register(api, id, 2, { quantity: 2 });
    const behind = await register(api, id, 3);

    const cancelled = await api.delete(`/api/v1/events/${id}/registrations/${String(head.id)}`);

    expect(data(cancelled)).toMatchObject({ status: 'cancelled', waitlist_position: null });
    expect(await statusOf(api, id, behind)).toEqual(['confirmed', null]);
  });

  it('when slots are raised, then the list is promoted in order as far as the new places go', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 1, waitlist: true }))).id);
    await register(api, id, 1);
    const waiting = [await register(api, id, 2), await register(api, id, 3), await register(api, id, 4)];

    const patched = await api.patch(`/api/v1/events/${id}`, { slots: 3 });

    expect(patched.status).toBe(200);
    expect(await Promise.all(waiting.map((registration) => statusOf(api, id, registration)))).toEqual([
      ['confirmed', null],
      ['confirmed', null],
      ['waitlisted', 3],
    ]);
    const events = await listener.forOrganization(api.organizationId, 2);
    expect(events.map((envelope) => envelope.data.id)).toEqual([waiting[0]?.id, waiting[1]?.id]);
  });

  it("when a ticket type's quantity is raised, then its waiting registrations are promoted and `sold` shows them", async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ waitlist: true }))).id);
    const type = String(data(await api.post(`/api/v1/events/${id}/ticket-types`, { name: 'A', price: 5, quantity: 1 })).id);
    await register(api, id, 1, { ticket_type_id: type });
    const soldOut = await register(api, id, 2, { ticket_type_id: type });

    const patched = await api.patch(`/api/v1/events/${id}/ticket-types/${type}`, { quantity: 2 });

    expect(soldOut).toMatchObject({ status: 'waitlisted', waitlist_position: 1 });
    expect(data(patched)).toMatchObject({ quantity: 2, sold: 2 });
    expect(await statusOf(api, id, soldOut)).toEqual(['confirmed', null]);
  });

  it('when a registration is read alone, then GET answers it with any status; unknown or another event is 404', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 1 }))).id);
    const other = String((await createEvent(api, openEvent())).id);
    const registration = await register(api, id, 1);
    const { client_secret: _once, ...record } = registration;

    const read = await api.get(`/api/v1/events/${id}/registrations/${String(registration.id)}`);

    expect(read.status).toBe(200);
    expect(data(read)).toEqual(record);
    expect((await api.get(`/api/v1/events/${other}/registrations/${String(registration.id)}`)).status).toBe(404);
    expect((await api.get(`/api/v1/events/${id}/registrations/not-a-uuid`)).status).toBe(404);
    expect((await client(running).get(`/api/v1/events/${id}/registrations/${String(registration.id)}`)).status).toBe(404);
  });

  it('when ?status= is not a status, then 400 listing the statuses', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent())).id);

    const reply = await api.get(`/api/v1/events/${id}/registrations?status=active`);

    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('status must be one of confirmed, waitlisted, cancelled');
  });

  it('when the event is a draft or cancelled, then nobody is promoted', async () => {
    const api = client(running);
    const id = String((await createEvent(api, openEvent({ slots: 1, waitlist: true }))).id);
    const confirmed = await register(api, id, 1);
    const waiting = await register(api, id, 2);

    await api.patch(`/api/v1/events/${id}`, { status: 'cancelled' });
    await api.delete(`/api/v1/events/${id}/registrations/${String(confirmed.id)}`);

    expect(await statusOf(api, id, waiting)).toEqual(['waitlisted', 1]);
  });
});
