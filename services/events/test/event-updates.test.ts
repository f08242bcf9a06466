import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, createEvent, data, openEvent, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);

describe('PATCH /api/v1/events/:id', () => {
  it('when the time zone changes, then the instants are recomputed', async () => {
    const api = client(running);
    const created = await createEvent(api, { title: 'Talk', start_date: '2031-03-01', start_time: '18:00', end_time: '19:30' });

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { timezone: 'Asia/Kathmandu' });

    expect(reply.status).toBe(200);
    expect(data(reply)).toMatchObject({
      timezone: 'Asia/Kathmandu',
      starts_at: '2031-03-01T12:15:00.000Z',
      ends_at: '2031-03-01T13:45:00.000Z',
    });
    expect(Date.parse(String(data(reply).updated_at))).toBeGreaterThanOrEqual(Date.parse(String(created.updated_at)));
  });

  it('when times are cleared, then the event starts at local midnight and has no end', async () => {
    const api = client(running);
    const created = await createEvent(api, {
      title: 'Talk',
      start_date: '2031-03-01',
      start_time: '18:00',
      end_time: '19:30',
      timezone: 'Europe/Paris',
    });

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { start_time: null, end_time: null });

    expect(data(reply)).toMatchObject({ start_time: null, end_time: null, starts_at: '2031-02-28T23:00:00.000Z', ends_at: null });
  });

  it('when any field changes, then only it changes', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ description: 'old', cost: 5, location: 'Hall' }));

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, {
      title: 'Renamed',
      description: null,
      cost: 7.25,
      site_id: 's2',
    });

    expect(data(reply)).toEqual({
      ...created,
      title: 'Renamed',
      description: null,
      cost: 7.25,
      site_id: 's2',
      updated_at: data(reply).updated_at,
    });
  });

  it.each([
    ['draft', 'published'],
    ['draft', 'cancelled'],
    ['published', 'cancelled'],
    ['published', 'draft'],
  ])('when %s → %s, then 200', async (from, to) => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ status: from }));

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { status: to });

    expect(reply.status).toBe(200);
    expect(data(reply).status).toBe(to);
  });

  it.each([
    ['cancelled', 'draft'],
    ['cancelled', 'published'],
  ])('when %s → %s, then 400 INVALID_TRANSITION', async (from, to) => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ status: from }));

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { status: to });

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_TRANSITION', error: `Cannot transition from ${from} to ${to}` });
  });

  it('when unpublishing an event with registrations, then 400 INVALID_TRANSITION', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent());
    await api.post(`/api/v1/events/${String(created.id)}/registrations`, { name: 'Bo', email: 'bo@example.com' });

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { status: 'draft' });

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_TRANSITION', error: 'Cannot transition from published to draft' });
  });

  it('when its only registration was cancelled, then it can be unpublished', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent());
    const registration = data(
      await api.post(`/api/v1/events/${String(created.id)}/registrations`, { name: 'Bo', email: 'bo@example.com' }),
    );
    await api.delete(`/api/v1/events/${String(created.id)}/registrations/${String(registration.id)}`);

    const reply = await api.patch(`/api/v1/events/${String(created.id)}`, { status: 'draft' });

    expect(reply.status).toBe(200);
  });

  it('when slots go below the places taken, then 409; down to them, then 200', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ slots: 10 }));
    await api.post(`/api/v1/events/${String(created.id)}/registrations`, { name: 'Cy', email: 'cy@example.com', quantity: 4 });

    const lower = await api.patch(`/api/v1/events/${String(created.id)}`, { slots: 3 });
    const equal = await api.patch(`/api/v1/events/${String(created.id)}`, { slots: 4 });

    expect(lower.status).toBe(409);
    expect(lower.body).toMatchObject({ code: 'CONFLICT' });
    expect(equal.status).toBe(200);
    expect(data(equal).slots).toBe(4);
  });

  it('when the event does not exist, then 404', async () => {
    const reply = await client(running).patch(`/api/v1/events/${randomUUID()}`, { title: 'x' });
    expect(reply.status).toBe(404);
  });
});

describe('DELETE /api/v1/events/:id', () => {
  it('when the event exists, then {id, deleted: true} and it is gone', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent());
    await api.post(`/api/v1/events/${String(created.id)}/registrations`, { name: 'Di', email: 'di@example.com' });

    const reply = await api.delete(`/api/v1/events/${String(created.id)}`);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: { id: created.id, deleted: true } });
    expect((await api.get(`/api/v1/events/${String(created.id)}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/events/${String(created.id)}`)).status).toBe(404);
  });

  it('when the id is malformed, then 404', async () => {
    expect((await client(running).delete('/api/v1/events/nope')).status).toBe(404);
  });
});
