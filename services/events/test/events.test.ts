import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { client, createEvent, data, openEvent, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);

describe('POST /api/v1/events', () => {
  it('when title and start_date are given, then 201 with a draft in the organization time zone', async () => {
    const api = client(running, undefined, 'Europe/Berlin');

    const reply = await api.post('/api/v1/events', { title: 'Summer party', start_date: '2031-07-01' });

    expect(reply.status).toBe(201);
    expect(data(reply)).toMatchObject({
      title: 'Summer party',
      status: 'draft',
      start_date: '2031-07-01',
      start_time: null,
      end_time: null,
      timezone: 'Europe/Berlin',
      starts_at: '2031-06-30T22:00:00.000Z',
      ends_at: null,
      cost: 0,
      slots: null,
      site_id: null,
    });
    expect(data(reply).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data(reply).created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('when no organization time zone is stamped, then the event is in UTC', async () => {
    const headers = organizationHeaders();
    delete headers['x-organization-timezone'];

    const response = await running.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers,
      payload: { title: 'Standup', start_date: '2031-01-05', start_time: '09:00' },
    });

    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ timezone: 'UTC', starts_at: '2031-01-05T09:00:00.000Z' });
  });

  it('when every field is given, then they are all stored and the instants follow the zone', async () => {
    const api = client(running);

    const event = await createEvent(api, {
      title: 'Night market',
      description: 'Food and music',
      start_date: '2027-03-13',
      start_time: '22:00',
      end_time: '03:00',
      timezone: 'America/New_York',
      location: 'Pier 17',
      cost: 12.5,
      slots: 40,
      status: 'published',
      site_id: 'site-1',
    });

    expect(event).toMatchObject({
      description: 'Food and music',
      starts_at: '2027-03-14T03:00:00.000Z',
      ends_at: '2027-03-14T07:00:00.000Z',
      location: 'Pier 17',
      cost: 12.5,
      slots: 40,
      status: 'published',
      site_id: 'site-1',
    });
  });

  it('when the start time falls in the spring-forward gap, then it is read with the offset before the gap', async () => {
    const event = await createEvent(client(running), {
      title: 'Gap',
      start_date: '2026-03-08',
      start_time: '02:30',
      timezone: 'America/New_York',
    });
    expect(event.starts_at).toBe('2026-03-08T07:30:00.000Z');
  });

  it.each([0.3, 19.99, 0.07, 1234.56, 0])('when the cost is %s dollars, then it comes back exactly', async (cost) => {
    const event = await createEvent(client(running), { title: 'Priced', start_date: '2031-01-01', cost });
    expect(event.cost).toBe(cost);
  });

  it.each([
    ['missing', {}],
    ['empty', { title: '' }],
    ['blank', { title: '   ' }],
  ])('when the title is %s, then 400 "title is required"', async (_case, title) => {
    const reply = await client(running).post('/api/v1/events', { start_date: '2031-01-01', ...title });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'title is required', code: 'VALIDATION_ERROR' });
  });

  it('when start_date is missing, then 400 naming it', async () => {
    const reply = await client(running).post('/api/v1/events', { title: 'No date' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'start_date is required', code: 'VALIDATION_ERROR' });
  });

  it('when the end falls before the start inside a DST gap, then 400', async () => {
    const reply = await client(running).post('/api/v1/events', {
      title: 'Odd',
      start_date: '2026-03-08',
      start_time: '02:59',
      end_time: '03:00',
      timezone: 'America/New_York',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'end_time must be after start_time, which falls in a daylight-saving gap and moves forward by it',
    });
  });
});

describe('GET /api/v1/events/:id', () => {
  it('when the event exists, then the whole record is returned', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ site_id: 'main', slots: 5 }));

    const reply = await api.get(`/api/v1/events/${String(created.id)}`);

    expect(reply.status).toBe(200);
    expect(data(reply)).toEqual(created);
    expect(Object.keys(data(reply)).sort()).toEqual(
      [
        'cost',
        'created_at',
        'description',
        'end_time',
        'ends_at',
        'id',
        'location',
        'questions',
        'site_id',
        'slots',
        'start_date',
        'start_time',
        'starts_at',
        'status',
        'timezone',
        'title',
        'updated_at',
        'waitlist',
      ].sort(),
    );
  });

  it('when include_counts is true, then the counts are added', async () => {
    const api = client(running);
    const created = await createEvent(api, openEvent({ slots: 5 }));
    await api.post(`/api/v1/events/${String(created.id)}/registrations`, { name: 'Ann', email: 'ann@example.com', quantity: 2 });

    const reply = await api.get(`/api/v1/events/${String(created.id)}?include_counts=true`);

    expect(data(reply).counts).toEqual({ registrations: 2, remaining: 3, waitlisted: 0, checked_in: 0 });
  });

  it.each(['not-a-uuid', randomUUID(), "1' OR '1'='1"])('when the id is %s, then 404', async (id) => {
    const reply = await client(running).get(`/api/v1/events/${encodeURIComponent(id)}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'NOT_FOUND', error: 'Event not found' });
  });
});
