import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { client, createEventType, data, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);

describe('POST /api/v1/event-types', () => {
  it('when title and duration are given, then 201 with the defaults', async () => {
    const reply = await client(running).post('/api/v1/event-types', { title: '30 Minute Meeting', duration: 30 });

    expect(reply.status).toBe(201);
    expect(data(reply)).toMatchObject({
      title: '30 Minute Meeting',
      slug: '30-minute-meeting',
      duration: 30,
      location_type: 'video',
      requires_approval: false,
      is_active: true,
      description: null,
      color: null,
    });
    expect(data(reply)).not.toHaveProperty('location_details');
    expect(data(reply).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data(reply).created_at).toMatch(/Z$/);
  });

  it('when every field is given, then they are stored', async () => {
    const eventType = await createEventType(client(running), {
      title: 'Site visit',
      slug: 'site-visit',
      description: 'At your place',
      duration: 90,
      location_type: 'in_person',
      location_details: '1 Main St',
      color: '#FF8800',
      requires_approval: true,
      is_active: false,
    });

    expect(eventType).toMatchObject({
      slug: 'site-visit',
      description: 'At your place',
      location_type: 'in_person',
      location_details: '1 Main St',
      color: '#FF8800',
      requires_approval: true,
      is_active: false,
    });
  });

  it('when the slug is omitted, then it is made from the title: lowercase, accents stripped, -2, -3 on collision', async () => {
    const api = client(running);

    const slugs = [];
    for (let n = 0; n < 3; n += 1) slugs.push((await createEventType(api, { title: 'Café Crème Consultation', duration: 15 })).slug);

    expect(slugs).toEqual(['cafe-creme-consultation', 'cafe-creme-consultation-2', 'cafe-creme-consultation-3']);
  });

  it('when the slug is given and already used in the organization, then 409 SLUG_TAKEN', async () => {
    const api = client(running);
    await createEventType(api, { title: 'Intro', slug: 'intro', duration: 15 });

    const reply = await api.post('/api/v1/event-types', { title: 'Another intro', slug: 'intro', duration: 15 });

    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: 'An event type with this slug already exists', code: 'SLUG_TAKEN' });
  });

  it('when another organization uses the slug, then it is free here', async () => {
    await createEventType(client(running), { title: 'Intro', slug: 'intro', duration: 15 });
    await createEventType(client(running), { title: 'Intro', slug: 'intro', duration: 15 });
  });

  it('when 20 creates with one explicit slug arrive at once, then exactly one gets 201', async () => {
    const api = client(running);

    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, n) => api.post('/api/v1/event-types', { title: `Demo ${n}`, slug: 'demo', duration: 30 })),
    );

    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    expect(replies.filter((reply) => reply.status === 409 && reply.body.code === 'SLUG_TAKEN')).toHaveLength(19);
  });

  it('when 20 creates with one title arrive at once, then each gets its own generated slug', async () => {
    const api = client(running);

    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/api/v1/event-types', { title: 'Office Hours', duration: 30 })),
    );

    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    const slugs = replies.map((reply) => data(reply).slug).sort();
    const expected = ['office-hours', ...Array.from({ length: 19 }, (_, n) => `office-hours-${n + 2}`)].sort();
    expect(slugs).toEqual(expected);
  });

  it('when the title has nothing to make a slug of, then a neutral slug is used', async () => {
    expect((await createEventType(client(running), { title: '会议', duration: 30 })).slug).toBe('event-type');
  });
});
