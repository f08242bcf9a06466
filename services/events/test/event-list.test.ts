import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, data, list, openEvent, startEvents, type Client } from './support/harness.js';

const running = startedForTests(startEvents);

async function create(api: Client, body: Record<string, unknown>): Promise<string> {
  const reply = await api.post('/api/v1/events', body);
  expect(reply.status).toBe(201);
  return String(data(reply).id);
}

const titles = (reply: Awaited<ReturnType<Client['get']>>) => list(reply).map((event) => event.title);

describe('GET /api/v1/events', () => {
  it('when no filter is given, then every event of the organization is listed by starts_at ascending', async () => {
    const api = client(running);
    await create(api, { title: 'C', start_date: '2031-03-01' });
    await create(api, { title: 'A', start_date: '2020-01-01' });
    await create(api, { title: 'B', start_date: '2031-01-01' });

    const reply = await api.get('/api/v1/events');

    expect(reply.status).toBe(200);
    expect(titles(reply)).toEqual(['A', 'B', 'C']);
    expect(reply.body.meta).toEqual({ total: 3, limit: 50, offset: 0, hasMore: false, next_cursor: null });
  });

  it('when limit and offset are given, then that page and the total are returned', async () => {
    const api = client(running);
    for (const day of ['01', '02', '03', '04', '05']) await create(api, { title: day, start_date: `2031-01-${day}` });

    const page = await api.get('/api/v1/events?limit=2&offset=1');
    const last = await api.get('/api/v1/events?limit=2&offset=4');
    const beyond = await api.get('/api/v1/events?limit=2&offset=10');

    expect(titles(page)).toEqual(['02', '03']);
    expect(page.body.meta).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true, next_cursor: expect.any(String) });
    expect(last.body.meta).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false, next_cursor: null });
    expect(beyond.body).toEqual({ data: [], meta: { total: 5, limit: 2, offset: 10, hasMore: false, next_cursor: null } });
  });

  it('when events are created at once and some deleted, then the total follows exactly', async () => {
    const api = client(running);
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => create(api, { title: `e${n}`, start_date: '2031-01-01' })));
    await Promise.all(ids.slice(0, 5).map((id) => api.delete(`/api/v1/events/${id}`)));

    const reply = await api.get('/api/v1/events?limit=1');

    expect(reply.body.meta).toEqual({ total: 15, limit: 1, offset: 0, hasMore: true, next_cursor: expect.any(String) });
  });

  it('when status and site_id are given, then only matching events are listed', async () => {
    const api = client(running);
    await create(api, { title: 'pub-a', start_date: '2031-01-01', status: 'published', site_id: 'a' });
    await create(api, { title: 'pub-b', start_date: '2031-01-02', status: 'published', site_id: 'b' });
    await create(api, { title: 'draft-a', start_date: '2031-01-03', site_id: 'a' });

    expect(titles(await api.get('/api/v1/events?status=published'))).toEqual(['pub-a', 'pub-b']);
    expect(titles(await api.get('/api/v1/events?site_id=a'))).toEqual(['pub-a', 'draft-a']);
    expect(titles(await api.get('/api/v1/events?site_id=a&status=draft'))).toEqual(['draft-a']);
    expect(titles(await api.get('/api/v1/events?status=cancelled'))).toEqual([]);
  });

  it('when upcoming or past is true, then events are split by their end (or start) and ordered toward now', async () => {
    const api = client(running);
    await create(api, { title: 'long ago', start_date: '2019-05-01', start_time: '10:00', end_time: '11:00' });
    await create(api, { title: 'recently', start_date: '2024-05-01' });
    await create(api, { title: 'soon', start_date: '2030-05-01' });
    await create(api, { title: 'later', start_date: '2032-05-01', start_time: '23:00', end_time: '01:00' });

    expect(titles(await api.get('/api/v1/events?upcoming=true'))).toEqual(['soon', 'later']);
    expect(titles(await api.get('/api/v1/events?past=true'))).toEqual(['recently', 'long ago']);
    expect(titles(await api.get('/api/v1/events?upcoming=false&past=false'))).toEqual(['long ago', 'recently', 'soon', 'later']);
  });

  it('when start_date and end_date are given, then they filter on the local calendar date of the event', async () => {
    const api = client(running);
    // 09:00 on 2031-01-01 in Auckland is still 2030-12-31 in UTC; 20:00 on 2030-12-31 in New York is 2031-01-01 in UTC.
    await create(api, { title: 'auckland', start_date: '2031-01-01', start_time: '09:00', timezone: 'Pacific/Auckland' });
    await create(api, { title: 'new york', start_date: '2030-12-31', start_time: '20:00', timezone: 'America/New_York' });
    await create(api, { title: 'berlin', start_date: '2031-01-02', timezone: 'Europe/Berlin' });

    expect(titles(await api.get('/api/v1/events?start_date=2031-01-01&end_date=2031-01-01'))).toEqual(['auckland']);
    expect(titles(await api.get('/api/v1/events?end_date=2030-12-31'))).toEqual(['new york']);
    expect(titles(await api.get('/api/v1/events?start_date=2031-01-01'))).toEqual(['auckland', 'berlin']);
  });

  it('when include_counts is true, then each event carries its places taken and remaining', async () => {
    const api = client(running);
    const limited = await create(api, openEvent({ title: 'limited', slots: 10, start_date: '2031-01-01' }));
    const unlimited = await create(api, openEvent({ title: 'unlimited', slots: null, start_date: '2031-01-02' }));
    await create(api, openEvent({ title: 'empty', slots: 3, start_date: '2031-01-03' }));
    await api.post(`/api/v1/events/${limited}/registrations`, { name: 'A', email: 'a@example.com', quantity: 3 });
    await api.post(`/api/v1/events/${limited}/registrations`, { name: 'B', email: 'b@example.com' });
    const cancelled = data(await api.post(`/api/v1/events/${limited}/registrations`, { name: 'C', email: 'c@example.com', quantity: 2 }));
    await api.delete(`/api/v1/events/${limited}/registrations/${String(cancelled.id)}`);
    await api.post(`/api/v1/events/${unlimited}/registrations`, { name: 'D', email: 'd@example.com', quantity: 7 });

    const reply = await api.get('/api/v1/events?include_counts=true');

    expect(list(reply).map((event) => [event.title, event.counts])).toEqual([
      ['limited', { registrations: 4, remaining: 6, waitlisted: 0, checked_in: 0 }],
      ['unlimited', { registrations: 7, remaining: null, waitlisted: 0, checked_in: 0 }],
      ['empty', { registrations: 0, remaining: 3, waitlisted: 0, checked_in: 0 }],
    ]);
  });

  it('when include_counts is absent or false, then no counts are given', async () => {
    const api = client(running);
    await create(api, openEvent());

    for (const url of ['/api/v1/events', '/api/v1/events?include_counts=false']) {
      expect(list(await api.get(url))[0]).not.toHaveProperty('counts');
    }
  });

  it('when upcoming and past are both true, then 400', async () => {
    const reply = await client(running).get('/api/v1/events?upcoming=true&past=true');
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('VALIDATION_ERROR');
  });

  it('when end_date is before start_date, then 400', async () => {
    const reply = await client(running).get('/api/v1/events?start_date=2031-02-01&end_date=2031-01-01');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'end_date must not be before start_date' });
  });
});
