import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_SERVICE_EVENTS, eventTypeGetRequest } from '@app/contracts';
import { AppError, type Bus } from '@app/service-kit';
import { neighbourBus, organizationHeaders } from '@app/service-testing';
import { listen } from './support/domain-events.js';
import { client, data, openEvent, startEvents, type Running } from './support/harness.js';

let running: Running;
let listener: Awaited<ReturnType<typeof listen>>;
/** Bookings' side: it asks events.event_type.get. */
let neighbour: Bus;
beforeAll(async () => {
  running = await startEvents();
  neighbour = await neighbourBus(running.infra.config);
  listener = await listen(
    running,
    EVENTS_SERVICE_EVENTS.map((event) => event.subject),
  );
});
afterAll(async () => {
  listener.close();
  await neighbour.close();
  await running.stop();
});

describe('domain events', () => {
  it('when an event and its registrations change, then each change is published once, in order', async () => {
    const api = client(running);
    const created = data(await api.post('/api/v1/events', openEvent({ status: 'draft', slots: 3 })));
    const id = String(created.id);
    const published = data(await api.patch(`/api/v1/events/${id}`, { status: 'published' }));
    const registration = data(await api.post(`/api/v1/events/${id}/registrations`, { name: 'A', email: 'a@example.com', quantity: 2 }));
    await api.delete(`/api/v1/events/${id}/registrations/${String(registration.id)}`);
    const { client_secret: _shownOnce, ...registrationRecord } = registration;
    const [cancelled] = data(await api.get(`/api/v1/events/${id}/registrations?status=cancelled`)) as unknown as Record<string, unknown>[];
    await api.delete(`/api/v1/events/${id}`);

    const envelopes = await listener.forOrganization(api.organizationId, 5);

    // Each carries the record as the API showed it after that change (event-carried state); a deletion only the id.
    expect(envelopes.map((envelope) => [envelope.type, envelope.data])).toEqual([
      ['events.event.created', { id, status: 'draft', record: created }],
      // An update names the record's fields it changed, with their values before (updated_at aside).
      ['events.event.updated', { id, status: 'published', record: published, previous_attributes: { status: 'draft' } }],
      // The record without the client_secret: only the 201 ever shows it.
      ['events.registration.created', { id: registration.id, event_id: id, quantity: 2, record: registrationRecord }],
      ['events.registration.cancelled', { id: registration.id, event_id: id, quantity: 2, record: cancelled }],
      ['events.event.deleted', { id }],
    ]);
    expect(cancelled).toMatchObject({ id: registration.id, status: 'cancelled', cancelled_at: expect.any(String) });
    expect(new Set(envelopes.map((envelope) => envelope.id)).size).toBe(5);
    expect(envelopes[0]).toMatchObject({
      organization_id: api.organizationId,
      schema_version: 2,
      occurred_at: expect.stringMatching(/Z$/),
    });
  });

  it('when an event type is created, updated and deleted, then each change is published', async () => {
    const api = client(running);
    const created = data(await api.post('/api/v1/event-types', { title: 'Sync', duration: 30 }));
    const id = String(created.id);
    const renamed = data(await api.patch(`/api/v1/event-types/${id}`, { slug: 'sync-call' }));
    expect(data(await api.get(`/api/v1/event-types/${id}`))).toEqual(renamed);
    await api.delete(`/api/v1/event-types/${id}`);

    const envelopes = await listener.forOrganization(api.organizationId, 3);

    expect(envelopes.map((envelope) => [envelope.type, envelope.data])).toEqual([
      ['events.event_type.created', { id, slug: 'sync', record: created }],
      ['events.event_type.updated', { id, slug: 'sync-call', record: renamed, previous_attributes: { slug: 'sync' } }],
      ['events.event_type.deleted', { id }],
    ]);
  });

  it('when a change is refused, then nothing is published for it', async () => {
    const api = client(running);
    const id = String(data(await api.post('/api/v1/events', openEvent({ slots: 1 }))).id);
    await api.post(`/api/v1/events/${id}/registrations`, { name: 'A', email: 'a@example.com' });
    await api.post(`/api/v1/events/${id}/registrations`, { name: 'B', email: 'b@example.com' }); // EVENT_FULL
    await api.patch(`/api/v1/events/${id}`, { status: 'draft' }); // INVALID_TRANSITION
    await api.patch(`/api/v1/events/${id}`, { title: 'Last' });

    const envelopes = await listener.forOrganization(api.organizationId, 3);

    expect(envelopes.map((envelope) => envelope.type)).toEqual([
      'events.event.created',
      'events.registration.created',
      'events.event.updated',
    ]);
  });

  it('when a change is made, then its envelope carries the request id as correlation id', async () => {
    const api = client(running);
    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/event-types',
      headers: { ...organizationHeaders(api.organizationId), 'x-request-id': 'req-123' },
      payload: { title: 'Traced', duration: 10 },
    });
    expect(response.statusCode).toBe(201);

    const [envelope] = await listener.forOrganization(api.organizationId, 1);

    expect(envelope?.correlation_id).toBe('req-123');
  });
});

describe('events.event_type.get', () => {
  async function ask(organizationId: string, eventTypeId: string) {
    return neighbour.request(eventTypeGetRequest, { organization_id: organizationId, event_type_id: eventTypeId });
  }

  it('when the event type is in the organization, then it is answered, active or not', async () => {
    const api = client(running);
    const created = data(
      await api.post('/api/v1/event-types', { title: 'Consult', duration: 45, requires_approval: true, is_active: false }),
    );

    const reply = await ask(api.organizationId, String(created.id));

    expect(reply).toEqual({
      id: created.id,
      title: 'Consult',
      slug: 'consult',
      duration: 45,
      location_type: 'video',
      requires_approval: true,
      is_active: false,
    });
  });

  it.each([
    ['another organization', async (id: string) => [randomUUID(), id]],
    ['an unknown id', async () => [randomUUID(), randomUUID()]],
    ['a malformed id', async () => [randomUUID(), 'not-a-uuid']],
  ])('when asked for %s, then NOT_FOUND', async (_case, args) => {
    const created = data(await client(running).post('/api/v1/event-types', { title: 'Private', duration: 15 }));
    const [organizationId = '', eventTypeId = ''] = await args(String(created.id));

    const error = await ask(organizationId, eventTypeId).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'Event type not found' });
  });
});
