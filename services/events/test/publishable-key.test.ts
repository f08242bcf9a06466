import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_SERVICE_EVENTS } from '@app/contracts';
import { listen } from './support/domain-events.js';
import { client, data, list, openEvent, startEvents, type Client, type Running } from './support/harness.js';
import { keyClient, type KeyClient } from './support/key-client.js';

/**
 * A publishable key (a booking page or shop front in a browser) through the events service, as API.md "Keys" lists
 * its public operations: active event types, published events, registering on published events, and cancelling a
 * registration with its own client_secret. A secret key of the same organization keeps seeing everything.
 */
let running: Running;
let listener: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  running = await startEvents();
  listener = await listen(
    running,
    EVENTS_SERVICE_EVENTS.map((event) => event.subject),
  );
});
afterAll(async () => {
  listener.close();
  await running.stop();
});

const CLIENT_SECRET = /^cs_[A-Za-z0-9_-]{32,}$/;
const attendee = { name: 'Ada', email: 'ada@example.com' };

/** A secret key and a publishable key of one fresh organization. */
function keys(): { secret: Client; publishable: KeyClient } {
  const secret = client(running);
  return { secret, publishable: keyClient(running, secret.organizationId, 'publishable') };
}

async function createdId(reply: Promise<{ status: number; body: { data?: unknown } }>): Promise<string> {
  const answer = await reply;
  expect(answer.status).toBe(201);
  return String((answer.body.data as { id: string }).id);
}

const eventOf = (api: Client, overrides: Record<string, unknown> = {}) => createdId(api.post('/api/v1/events', openEvent(overrides)));

const notFound = (entity: string) => ({ code: 'NOT_FOUND', error: `${entity} not found` });

describe('event types with a publishable key', () => {
  it('when an event type is active, then it is shown whole, as the secret key sees it', async () => {
    const { secret, publishable } = keys();
    const id = await createdId(secret.post('/api/v1/event-types', { title: 'Intro call', duration: 30, description: 'Hi' }));

    const reply = await publishable.get(`/api/v1/event-types/${id}`);

    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual((await secret.get(`/api/v1/event-types/${id}`)).body.data);
  });

  it('when an event type is inactive, then it is a 404 like an unknown one, and the secret key still reads it', async () => {
    const { secret, publishable } = keys();
    const id = await createdId(secret.post('/api/v1/event-types', { title: 'Old call', duration: 30, is_active: false }));

    const inactive = await publishable.get(`/api/v1/event-types/${id}`);
    const unknown = await publishable.get(`/api/v1/event-types/${randomUUID()}`);

    expect(inactive.status).toBe(404);
    expect(inactive.body).toMatchObject(notFound('Event type'));
    expect(inactive.body).toEqual(unknown.body);
    expect((await secret.get(`/api/v1/event-types/${id}`)).status).toBe(200);
  });

  it('when event types are listed, then only the active ones, and active=false lists none', async () => {
    const { secret, publishable } = keys();
    const active = [
      await createdId(secret.post('/api/v1/event-types', { title: 'A', duration: 15 })),
      await createdId(secret.post('/api/v1/event-types', { title: 'B', duration: 15 })),
    ];
    await createdId(secret.post('/api/v1/event-types', { title: 'C', duration: 15, is_active: false }));

    const listed = await publishable.get('/api/v1/event-types');
    const inactive = await publishable.get('/api/v1/event-types?active=false');

    expect(list(listed).map((type) => type.id)).toEqual(active);
    expect(listed.body.meta).toMatchObject({ total: 2, hasMore: false });
    expect(list(inactive)).toEqual([]);
    expect(inactive.body.meta).toMatchObject({ total: 0 });
    expect((await secret.get('/api/v1/event-types?active=false')).body.meta).toMatchObject({ total: 1 });
  });

  it.each([
    ['POST', '/api/v1/event-types'],
    ['PATCH', `/api/v1/event-types/${randomUUID()}`],
    ['DELETE', `/api/v1/event-types/${randomUUID()}`],
  ] as const)('when it calls %s %s, then 403 FORBIDDEN', async (method, url) => {
    const { publishable } = keys();
    const reply =
      method === 'POST'
        ? await publishable.post(url, {})
        : method === 'PATCH'
          ? await publishable.patch(url, {})
          : await publishable.delete(url);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ code: 'FORBIDDEN', error: 'Publishable keys cannot call this operation' });
  });
});

describe('events with a publishable key', () => {
  it('when an event is published, then it is shown whole (counts on request), as the secret key sees it', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 5 });

    const reply = await publishable.get(`/api/v1/events/${id}?include_counts=true`);

    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual((await secret.get(`/api/v1/events/${id}?include_counts=true`)).body.data);
    expect(reply.body.data).toMatchObject({ status: 'published', counts: { registrations: 0, remaining: 5 } });
  });

  it.each(['draft', 'cancelled'])('when an event is %s, then it is a 404 like an unknown one', async (status) => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { status });

    const hidden = await publishable.get(`/api/v1/events/${id}`);

    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual((await publishable.get(`/api/v1/events/${randomUUID()}`)).body);
    expect(hidden.body).toMatchObject(notFound('Event'));
    expect((await secret.get(`/api/v1/events/${id}`)).status).toBe(200);
  });

  it('when events are listed page by page, then only published ones, with totals and cursors of that list', async () => {
    const { secret, publishable } = keys();
    const published: string[] = [];
    for (const [day, status] of [
      ['01', 'published'],
      ['02', 'draft'],
      ['03', 'published'],
      ['04', 'cancelled'],
      ['05', 'published'],
    ] as const) {
      const id = await eventOf(secret, { start_date: `2031-06-${day}`, status });
      if (status === 'published') published.push(id);
    }

    const first = await publishable.get('/api/v1/events?limit=2');
    const cursor = String((first.body.meta as { next_cursor: string }).next_cursor);
    const second = await publishable.get(`/api/v1/events?limit=2&cursor=${encodeURIComponent(cursor)}`);
    const byOffset = await publishable.get('/api/v1/events?limit=2&offset=2');

    expect(list(first).map((event) => event.id)).toEqual(published.slice(0, 2));
    expect(first.body.meta).toMatchObject({ total: 3, hasMore: true, offset: 0 });
    expect(list(second).map((event) => event.id)).toEqual(published.slice(2));
    expect(second.body.meta).toMatchObject({ total: 3, hasMore: false, offset: 2, next_cursor: null });
    expect(list(byOffset).map((event) => event.id)).toEqual(published.slice(2));
    expect((await secret.get('/api/v1/events')).body.meta).toMatchObject({ total: 5 });
  });

  it('when it asks for drafts, or brings a secret key’s cursor, then it gets no draft', async () => {
    const { secret, publishable } = keys();
    await eventOf(secret, { start_date: '2031-07-01', status: 'draft' });
    await eventOf(secret, { start_date: '2031-07-02', status: 'draft' });
    await eventOf(secret, { start_date: '2031-07-03' });

    const drafts = await publishable.get('/api/v1/events?status=draft');
    const secretCursor = String(((await secret.get('/api/v1/events?limit=1')).body.meta as { next_cursor: string }).next_cursor);
    const replayed = await publishable.get(`/api/v1/events?limit=1&cursor=${encodeURIComponent(secretCursor)}`);

    expect(list(drafts)).toEqual([]);
    expect(drafts.body.meta).toMatchObject({ total: 0 });
    // A cursor is bound to the list it came from: the secret key's unfiltered list is not the publishable key's.
    expect(replayed.status).toBe(400);
    expect(replayed.body).toMatchObject({ code: 'CURSOR_INVALID' });
  });

  it.each([
    ['POST', '/api/v1/events'],
    ['PATCH', `/api/v1/events/${randomUUID()}`],
    ['DELETE', `/api/v1/events/${randomUUID()}`],
    ['GET', `/api/v1/events/${randomUUID()}/registrations`],
  ] as const)('when it calls %s %s, then 403 FORBIDDEN', async (method, url) => {
    const { publishable } = keys();
    const reply =
      method === 'POST'
        ? await publishable.post(url, {})
        : method === 'PATCH'
          ? await publishable.patch(url, {})
          : method === 'GET'
            ? await publishable.get(url)
            : await publishable.delete(url);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('registrations with a publishable key', () => {
  it('when it registers on a published event, then 201 with the record and a client_secret', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 3 });

    const reply = await publishable.post(`/api/v1/events/${id}/registrations`, { ...attendee, quantity: 2 });

    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      event_id: id,
      ...attendee,
      quantity: 2,
      status: 'confirmed',
      client_secret: expect.stringMatching(CLIENT_SECRET),
    });
    expect((await secret.get(`/api/v1/events/${id}?include_counts=true`)).body.data).toMatchObject({
      counts: { registrations: 2, remaining: 1 },
    });
  });

  it.each(['draft', 'cancelled'])('when the event is %s, then 404 NOT_FOUND (not 409) and no place is taken', async (status) => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { status, slots: 3 });

    const reply = await publishable.post(`/api/v1/events/${id}/registrations`, attendee);

    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject(notFound('Event'));
    expect(list(await secret.get(`/api/v1/events/${id}/registrations`))).toEqual([]);
  });

  it('when the published event is past or full, then the same 409s as for a secret key', async () => {
    const { secret, publishable } = keys();
    const past = await eventOf(secret, { start_date: '2021-06-01' });
    const full = await eventOf(secret, { slots: 1 });
    await publishable.post(`/api/v1/events/${full}/registrations`, attendee);

    expect((await publishable.post(`/api/v1/events/${past}/registrations`, attendee)).body).toMatchObject({ code: 'EVENT_NOT_OPEN' });
    expect((await publishable.post(`/api/v1/events/${full}/registrations`, attendee)).body).toMatchObject({ code: 'EVENT_FULL' });
  });

  it('when many publishable registrations race for the last places, then exactly as many as fit get a 201', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 3 });

    const replies = await Promise.all(Array.from({ length: 20 }, () => publishable.post(`/api/v1/events/${id}/registrations`, attendee)));

    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    expect(replies.filter((reply) => reply.status === 409).map((reply) => reply.body.code)).toEqual(Array(17).fill('EVENT_FULL'));
    expect((await secret.get(`/api/v1/events/${id}?include_counts=true`)).body.data).toMatchObject({
      counts: { registrations: 3, remaining: 0 },
    });
  });

  it('when it cancels with the registration’s own client_secret, then 200 cancelled, the places freed', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 2 });
    const registered = (await publishable.post(`/api/v1/events/${id}/registrations`, attendee)).body.data as Record<string, string>;

    const reply = await publishable.delete(
      `/api/v1/events/${id}/registrations/${registered.id}?client_secret=${encodeURIComponent(String(registered.client_secret))}`,
    );

    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id: registered.id, status: 'cancelled' });
    expect(reply.body.data).not.toHaveProperty('client_secret');
    expect((await secret.get(`/api/v1/events/${id}?include_counts=true`)).body.data).toMatchObject({
      counts: { registrations: 0, remaining: 2 },
    });
  });

  it('when it cancels without a client_secret, with another registration’s, or with a guess, then 404 and nothing changes', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 5 });
    const target = (await publishable.post(`/api/v1/events/${id}/registrations`, attendee)).body.data as Record<string, string>;
    const other = (await publishable.post(`/api/v1/events/${id}/registrations`, { ...attendee, name: 'Eve' })).body.data as Record<
      string,
      string
    >;
    const elsewhere = await eventOf(secret);
    const elsewhereSecret = String(
      ((await publishable.post(`/api/v1/events/${elsewhere}/registrations`, attendee)).body.data as Record<string, string>).client_secret,
    );
    const url = `/api/v1/events/${id}/registrations/${target.id}`;
    const unknown = await publishable.delete(`/api/v1/events/${id}/registrations/${randomUUID()}?client_secret=${target.client_secret}`);

    for (const query of [
      '',
      `?client_secret=${other.client_secret}`,
      `?client_secret=${elsewhereSecret}`,
      `?client_secret=cs_${'A'.repeat(32)}`,
      `?client_secret=${String(target.client_secret).slice(0, -1)}`,
      `?client_secret=${String(target.client_secret).toUpperCase()}`,
      '?client_secret=',
    ]) {
      const reply = await publishable.delete(`${url}${query}`);
      expect(reply.status, query).toBe(404);
      expect(reply.body, query).toEqual(unknown.body);
    }
    // Another event's path with the right secret is not this registration either.
    expect(
      (await publishable.delete(`/api/v1/events/${elsewhere}/registrations/${target.id}?client_secret=${target.client_secret}`)).status,
    ).toBe(404);
    expect(unknown.body).toMatchObject(notFound('Registration'));
    const stored = list(await secret.get(`/api/v1/events/${id}/registrations`));
    expect(stored.map((registration) => registration.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('when a registration made before client secrets (none stored) is cancelled with any secret, then 404', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret);
    const registered = data(await secret.post(`/api/v1/events/${id}/registrations`, attendee));
    await running.infra.pool.query('UPDATE registrations SET client_secret_hash = NULL WHERE id = $1::uuid', [registered.id]);

    const reply = await publishable.delete(
      `/api/v1/events/${id}/registrations/${String(registered.id)}?client_secret=${String(registered.client_secret)}`,
    );

    expect(reply.status).toBe(404);
  });

  it('when the same Idempotency-Key and body are sent again, then the first 201 is replayed, client_secret included, once', async () => {
    const { secret, publishable } = keys();
    const id = await eventOf(secret, { slots: 5 });
    const key = { 'idempotency-key': randomUUID() };

    const first = await publishable.post(`/api/v1/events/${id}/registrations`, attendee, key);
    const replay = await publishable.post(`/api/v1/events/${id}/registrations`, attendee, key);
    const otherOrganization = keyClient(running, randomUUID(), 'publishable');
    const elsewhere = await otherOrganization.post(`/api/v1/events/${id}/registrations`, attendee, key);

    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    // Shown once: no browser cache or proxy may keep either answer.
    expect([first.headers['cache-control'], replay.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    expect(list(await secret.get(`/api/v1/events/${id}/registrations`))).toHaveLength(1);
    // Keys are per organization: another organization's same key is not a replay (and this event is not its).
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).not.toHaveProperty('data');
  });
});

describe('client_secret with a secret key', () => {
  it('when a secret key registers, then its 201 carries a client_secret too, shown nowhere else and stored as a hash', async () => {
    const { secret } = keys();
    const id = await eventOf(secret);

    const created = data(await secret.post(`/api/v1/events/${id}/registrations`, attendee));
    const clientSecret = String(created.client_secret);
    const listed = list(await secret.get(`/api/v1/events/${id}/registrations`));
    const [envelope] = (await listener.forOrganization(secret.organizationId, 2)).filter(
      (event) => event.type === 'events.registration.created',
    );
    const { rows } = await running.infra.pool.query<Record<string, unknown>>('SELECT * FROM registrations WHERE id = $1::uuid', [
      created.id,
    ]);

    expect(clientSecret).toMatch(CLIENT_SECRET);
    const { client_secret: _shown, ...record } = created;
    expect(listed).toEqual([record]);
    expect(envelope?.data.record).toEqual(record);
    expect(JSON.stringify(envelope)).not.toContain(clientSecret);
    expect(rows[0]?.client_secret_hash).toEqual(createHash('sha256').update(clientSecret).digest());
    expect(JSON.stringify(rows[0])).not.toContain(clientSecret.slice(3));
  });

  it('when each of many registrations is made, then each has its own client_secret', async () => {
    const { secret } = keys();
    const id = await eventOf(secret);

    const replies = await Promise.all(Array.from({ length: 10 }, () => secret.post(`/api/v1/events/${id}/registrations`, attendee)));

    const secrets = new Set(replies.map((reply) => String(data(reply).client_secret)));
    expect(secrets.size).toBe(10);
  });

  it('when a secret key cancels, then no client_secret is needed (and any given is not checked), as before', async () => {
    const { secret } = keys();
    const id = await eventOf(secret);
    const first = data(await secret.post(`/api/v1/events/${id}/registrations`, attendee));
    const second = data(await secret.post(`/api/v1/events/${id}/registrations`, attendee));

    const plain = await secret.delete(`/api/v1/events/${id}/registrations/${String(first.id)}`);
    const withOther = await secret.delete(
      `/api/v1/events/${id}/registrations/${String(second.id)}?client_secret=${String(first.client_secret)}`,
    );

    expect(plain.status).toBe(200);
    expect(withOther.status).toBe(200);
    expect(data(withOther)).toMatchObject({ status: 'cancelled' });
  });

  it('when a secret key sees drafts, inactive event types and registers on a draft, then as before (409, not 404)', async () => {
    const { secret } = keys();
    const draft = await eventOf(secret, { status: 'draft' });

    expect((await secret.get(`/api/v1/events/${draft}`)).status).toBe(200);
    expect((await secret.get('/api/v1/events?status=draft')).body.meta).toMatchObject({ total: 1 });
    expect((await secret.post(`/api/v1/events/${draft}/registrations`, attendee)).body).toMatchObject({ code: 'EVENT_NOT_OPEN' });
  });

  it('when a restricted key with registrations:write cancels, then no client_secret is needed either', async () => {
    const { secret } = keys();
    const id = await eventOf(secret);
    const registered = data(await secret.post(`/api/v1/events/${id}/registrations`, attendee));
    const restricted = keyClient(running, secret.organizationId, 'restricted', ['registrations:write']);

    const reply = await restricted.delete(`/api/v1/events/${id}/registrations/${String(registered.id)}`);

    // The client_secret rule is the publishable key's only: a key the organization gave write access cancels any.
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ status: 'cancelled' });
  });
});
