import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationCheckedInEvent, TICKET_CODE_ALPHABET } from '@app/contracts';
import { organizationHeaders } from '@app/service-testing';
import { newTicketCode } from '../src/domain/ticket-code.js';
import { listen } from './support/domain-events.js';
import { client, createEvent, data, list, openEvent, startEvents, type Client, type Reply, type Running } from './support/harness.js';
import { keyClient } from './support/key-client.js';

/** Scans at the door (API.md "Ticket types, waitlists, check-in and questions"): once per ticket, in the stated order. */
let running: Running;
let listener: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  running = await startEvents();
  listener = await listen(running, [registrationCheckedInEvent.subject]);
});
afterAll(async () => {
  listener.close();
  await running.stop();
});

let attendees = 0;
/** A registration of `quantity` places at the event: its id and ticket code. */
async function register(api: Client, eventId: string, quantity = 1): Promise<{ id: string; code: string }> {
  attendees += 1;
  const reply = await api.post(`/api/v1/events/${eventId}/registrations`, {
    name: `Guest ${attendees}`,
    email: `guest${attendees}@example.com`,
    quantity,
  });
  expect(reply.status).toBe(201);
  return { id: String(data(reply).id), code: String(data(reply).ticket_code) };
}

const scan = (api: Client, eventId: string, code: string): Promise<Reply> =>
  api.post(`/api/v1/events/${eventId}/check-ins`, { ticket_code: code });

async function openEventId(api: Client, overrides: Record<string, unknown> = {}): Promise<string> {
  return String((await createEvent(api, openEvent({ slots: 100, ...overrides }))).id);
}

async function registrationOf(api: Client, eventId: string, id: string): Promise<Record<string, unknown> | undefined> {
  return list(await api.get(`/api/v1/events/${eventId}/registrations?limit=200`)).find((registration) => registration.id === id);
}

describe('ticket codes', () => {
  it('when people register, then each gets a code of 10 characters of A-Z and 2-9, all different', async () => {
    const api = client(running);
    const eventId = await openEventId(api, { slots: null });

    const codes = await Promise.all(Array.from({ length: 25 }, async () => (await register(api, eventId)).code));

    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(new Set(codes).size).toBe(codes.length);
    const listed = list(await api.get(`/api/v1/events/${eventId}/registrations?limit=200`)).map((registration) => registration.ticket_code);
    expect(new Set(listed)).toEqual(new Set(codes));
  });

  it('when a registration is made, then its record shows the code and no check-in yet', async () => {
    const api = client(running);
    const eventId = await openEventId(api);

    const { id, code } = await register(api, eventId);

    expect(await registrationOf(api, eventId, id)).toMatchObject({ ticket_code: code, checked_in_at: null, answers: {} });
  });

  it('when codes are drawn, then every character of the alphabet comes up and none other', () => {
    const codes = Array.from({ length: 5000 }, () => newTicketCode());

    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...new Set(codes.join(''))].sort().join('')).toBe([...TICKET_CODE_ALPHABET].sort().join(''));
  });

  it('when a registration is written by plain SQL (a seed, or one from before codes), then Postgres draws its code', async () => {
    const api = client(running);
    const eventId = await openEventId(api, { slots: null });

    const { rows } = await running.infra.pool.query<{ code: string }>(
      `INSERT INTO registrations (id, organization_id, event_id, name, email, quantity)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'Seed ' || n, 'seed' || n || '@example.com', 1 FROM generate_series(1, 500) AS n
       RETURNING ticket_code AS code`,
      [api.organizationId, eventId],
    );

    const codes = rows.map((row) => row.code);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(new Set(codes).size).toBe(500);
    expect(new Set(codes.join('')).size).toBe(TICKET_CODE_ALPHABET.length);
    expect((await scan(api, eventId, String(codes[0]))).status).toBe(201);
  });

  it('when a stored code would repeat in the organization, then the database refuses it', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const first = await register(api, eventId);
    const second = await register(api, eventId);

    const clash = running.infra.pool.query('UPDATE registrations SET ticket_code = $1 WHERE id = $2::uuid', [first.code, second.id]);

    await expect(clash).rejects.toMatchObject({ code: '23505', constraint: 'registrations_organization_ticket_code_key' });
  });
});

describe('POST /api/v1/events/:id/check-ins', () => {
  it('when a valid ticket is scanned, then 201 with the registration and the time, and the record shows it', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId);

    const reply = await scan(api, eventId, code);

    expect(reply.status).toBe(201);
    expect(data(reply)).toEqual({ registration_id: id, checked_in_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect((await registrationOf(api, eventId, id))?.checked_in_at).toBe(data(reply).checked_in_at);
  });

  it('when the code is scanned in lower case, then it is the same ticket', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId);

    const reply = await scan(api, eventId, code.toLowerCase());

    expect(reply.status).toBe(201);
    expect(data(reply).registration_id).toBe(id);
  });

  it('when the same ticket is scanned again, then 409 ALREADY_CHECKED_IN naming the first time', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { code } = await register(api, eventId);
    const first = data(await scan(api, eventId, code));

    const again = await scan(api, eventId, code);

    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'ALREADY_CHECKED_IN', error: `Ticket already checked in at ${String(first.checked_in_at)}` });
  });

  it('when 20 scanners read one ticket at once, then exactly one 201 and 19 ALREADY_CHECKED_IN with its time', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { code } = await register(api, eventId);

    const replies = await Promise.all(Array.from({ length: 20 }, () => scan(api, eventId, code)));

    const admitted = replies.filter((reply) => reply.status === 201);
    expect(admitted).toHaveLength(1);
    const time = String(data(admitted[0] as Reply).checked_in_at);
    const refused = replies.filter((reply) => reply.status !== 201);
    expect(refused.map((reply) => [reply.status, reply.body])).toEqual(
      Array.from({ length: 19 }, () => [409, { code: 'ALREADY_CHECKED_IN', error: `Ticket already checked in at ${time}` }]),
    );
  });

  it('when many tickets of one event are scanned at once, then each is checked in once', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const tickets = await Promise.all(Array.from({ length: 30 }, () => register(api, eventId)));

    const replies = await Promise.all(tickets.map(({ code }) => scan(api, eventId, code)));

    expect(replies.map((reply) => reply.status)).toEqual(tickets.map(() => 201));
    expect(new Set(replies.map((reply) => data(reply).registration_id))).toEqual(new Set(tickets.map(({ id }) => id)));
  });

  it.each([
    ['a draft event', { status: 'draft' }],
    ['a cancelled event', { status: 'cancelled' }],
  ])('when the event is %s, then 409 EVENT_NOT_OPEN, before the code or its registration is looked at', async (_name, status) => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId);
    // Unpublishing needs no places taken: the registration is cancelled first (it would be NOT_CHECKABLE on an open event).
    await api.delete(`/api/v1/events/${eventId}/registrations/${id}`);
    expect((await api.patch(`/api/v1/events/${eventId}`, status)).status).toBe(200);

    const known = await scan(api, eventId, code);
    const unknown = await scan(api, eventId, 'ZZZZZZZZZZ');

    for (const reply of [known, unknown]) {
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ code: 'EVENT_NOT_OPEN' });
    }
  });

  it('when the event is unknown, malformed or of another organization, then 404 NOT_FOUND', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { code } = await register(api, eventId);

    const replies = [
      await scan(api, '4f0f6f1e-38a4-4d55-9a48-3e0d3f9c8b11', code),
      await scan(api, 'not-a-uuid', code),
      await scan(client(running), eventId, code),
    ];

    for (const reply of replies) expect(reply.body).toEqual({ code: 'NOT_FOUND', error: 'Event not found' });
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404]);
  });

  it("when the code is unknown or another event's, then 404 NOT_FOUND", async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const otherEvent = await openEventId(api);
    const other = await register(api, otherEvent);

    const unknown = await scan(api, eventId, 'ABCDEFGH23');
    const elsewhere = await scan(api, eventId, other.code);

    for (const reply of [unknown, elsewhere]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ code: 'NOT_FOUND', error: 'Ticket not found' });
    }
    expect((await scan(api, otherEvent, other.code)).status).toBe(201);
  });

  it('when the registration is cancelled, then 409 NOT_CHECKABLE, even after it was checked in', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const never = await register(api, eventId);
    const before = await register(api, eventId);
    expect((await scan(api, eventId, before.code)).status).toBe(201);
    for (const { id } of [never, before]) expect((await api.delete(`/api/v1/events/${eventId}/registrations/${id}`)).status).toBe(200);

    for (const { code } of [never, before]) {
      const reply = await scan(api, eventId, code);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ code: 'NOT_CHECKABLE' });
    }
  });

  it.each([
    ['too short', 'ABC'],
    ['with a 0', 'ABCDEFGH20'],
    ['with a 1', 'ABCDEFGH21'],
    ['too long', 'ABCDEFGH234'],
    ['not a string', 12345],
  ])('when the code is %s, then 400 naming ticket_code', async (_name, code) => {
    const api = client(running);
    const eventId = await openEventId(api);

    const reply = await api.post(`/api/v1/events/${eventId}/check-ins`, { ticket_code: code });

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^ticket_code /) });
  });

  it('when the key is publishable or may only read registrations, then 403 FORBIDDEN', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { code } = await register(api, eventId);

    const publishable = await keyClient(running, api.organizationId, 'publishable').post(`/api/v1/events/${eventId}/check-ins`, {
      ticket_code: code,
    });
    const reader = await keyClient(running, api.organizationId, 'restricted', ['registrations:read']).post(
      `/api/v1/events/${eventId}/check-ins`,
      { ticket_code: code },
    );
    const writer = await keyClient(running, api.organizationId, 'restricted', ['registrations:write']).post(
      `/api/v1/events/${eventId}/check-ins`,
      { ticket_code: code },
    );

    expect([publishable.status, reader.status]).toEqual([403, 403]);
    expect(reader.body).toMatchObject({ code: 'FORBIDDEN', error: 'This key lacks the registrations:write scope' });
    expect(writer.status).toBe(201);
  });

  it('when a ticket is checked in, then events.registration.checked_in carries the record, once', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId, 2);
    await scan(api, eventId, code);
    await scan(api, eventId, code);
    const record = await registrationOf(api, eventId, id);

    const [envelope, ...more] = await listener.forOrganization(api.organizationId, 1);

    expect(envelope).toMatchObject({ type: 'events.registration.checked_in', data: { id, event_id: eventId, quantity: 2, record } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(more).toEqual([]);
    expect(await listener.forOrganization(api.organizationId, 1)).toHaveLength(1);
  });
});

describe('DELETE /api/v1/events/:id/registrations/:registrationId/check-in', () => {
  const undo = (api: Client, eventId: string, id: string, headers: Record<string, string> = {}) =>
    running.app.inject({
      method: 'DELETE',
      url: `/api/v1/events/${eventId}/registrations/${id}/check-in`,
      headers: { ...organizationHeaders(api.organizationId), ...headers },
    });

  it('when the ticket was checked in, then 200 with the record not checked in, and it can be scanned again', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId);
    await scan(api, eventId, code);

    const reply = await undo(api, eventId, id);

    expect(reply.statusCode).toBe(200);
    expect(reply.json<{ data: Record<string, unknown> }>().data).toEqual({
      ...(await registrationOf(api, eventId, id)),
      checked_in_at: null,
    });
    expect(reply.headers.etag).toEqual(expect.any(String));
    expect((await scan(api, eventId, code)).status).toBe(201);
  });

  it('when the ticket is not checked in, then 200 with the record unchanged', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id } = await register(api, eventId);
    const before = await registrationOf(api, eventId, id);

    const first = await undo(api, eventId, id);
    const second = await undo(api, eventId, id);

    for (const reply of [first, second]) {
      expect(reply.statusCode).toBe(200);
      expect(reply.json<{ data: unknown }>().data).toEqual(before);
    }
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('when If-Match is stale, then 412 and the check-in stays; with a current one the undo is done', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { id, code } = await register(api, eventId);
    const beforeScan = String((await undo(api, eventId, id)).headers.etag);
    const unchanged = await undo(api, eventId, id, { 'if-match': beforeScan });
    await scan(api, eventId, code);

    const refused = await undo(api, eventId, id, { 'if-match': beforeScan });
    const stillIn = (await registrationOf(api, eventId, id))?.checked_in_at;
    const done = await undo(api, eventId, id, { 'if-match': '*' });

    expect(unchanged.statusCode).toBe(200);
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(stillIn).toEqual(expect.any(String));
    expect(done.statusCode).toBe(200);
    expect(done.json<{ data: Record<string, unknown> }>().data.checked_in_at).toBeNull();
  });

  it('when the registration is unknown or of another event, then 404', async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const otherEvent = await openEventId(api);
    const { id } = await register(api, otherEvent);

    const replies = [await undo(api, eventId, id), await undo(api, eventId, 'nope'), await undo(client(running), otherEvent, id)];

    expect(replies.map((reply) => reply.statusCode)).toEqual([404, 404, 404]);
  });
});

describe('counts.checked_in', () => {
  it('when tickets are checked in, then the places of those not cancelled are counted, in GET and in the list', async () => {
    const api = client(running);
    const eventId = await openEventId(api, { slots: 20 });
    const pair = await register(api, eventId, 2);
    const trio = await register(api, eventId, 3);
    const gone = await register(api, eventId, 4);
    await register(api, eventId, 1);
    for (const { code } of [pair, trio, gone]) await scan(api, eventId, code);
    await api.delete(`/api/v1/events/${eventId}/registrations/${gone.id}`);
    await api.request('DELETE', `/api/v1/events/${eventId}/registrations/${trio.id}/check-in`);

    const single = data(await api.get(`/api/v1/events/${eventId}?include_counts=true`));
    const listed = list(await api.get('/api/v1/events?include_counts=true')).find((event) => event.id === eventId);

    expect(single.counts).toEqual({ registrations: 6, remaining: 14, waitlisted: 0, checked_in: 2 });
    expect(listed?.counts).toEqual(single.counts);
  });

  it("when a ticket is checked in, then the event's ETag changes, so a cached copy with the old counts is not reused", async () => {
    const api = client(running);
    const eventId = await openEventId(api);
    const { code } = await register(api, eventId);
    const get = (headers: Record<string, string> = {}) =>
      running.app.inject({
        method: 'GET',
        url: `/api/v1/events/${eventId}?include_counts=true`,
        headers: { ...organizationHeaders(api.organizationId), ...headers },
      });
    const before = await get();
    const etag = String(before.headers.etag);

    await scan(api, eventId, code);
    const after = await get({ 'if-none-match': etag });
    const patched = await running.app.inject({
      method: 'PATCH',
      url: `/api/v1/events/${eventId}`,
      headers: { ...organizationHeaders(api.organizationId), 'if-match': String(after.headers.etag) },
      payload: { title: 'Renamed' },
    });

    expect((await get({ 'if-none-match': etag })).statusCode).toBe(200);
    expect(after.statusCode).toBe(200);
    expect(after.json<{ data: { counts: unknown } }>().data.counts).toMatchObject({ checked_in: 1 });
    expect(after.headers.etag).not.toBe(etag);
    // The new tag is the event's current one for writes too.
    expect(patched.statusCode).toBe(200);
  });
});
