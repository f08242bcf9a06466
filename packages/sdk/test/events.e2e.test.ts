import { describe, expect, it } from 'vitest';
import { preparedForTests, startedForTests } from '@app/service-testing';
import { failure } from './support/failure.js';
import { day, startSdkStack } from './support/sdk-stack.js';

describe('event types, events and registrations through the SDK', () => {
  const sdk = startedForTests(startSdkStack, { timeout: 120_000 });
  const api = preparedForTests(() => sdk.organization('Events'));

  it('when an event type is created, listed, read, updated and deleted, then each answer is the typed record', async () => {
    const created = await api.POST('/api/v1/event-types', { body: { title: 'Intro call', duration: 30, color: '#33aaff' } });
    const id = created.data.data.id;
    expect(created.data.data).toMatchObject({ slug: 'intro-call', duration: 30, is_active: true });

    const active = await api.GET('/api/v1/event-types', { params: { query: { active: true } } });
    expect(active.data.data.map((t) => t.id)).toContain(id);
    expect((await api.GET('/api/v1/event-types/{id}', { params: { path: { id } } })).data.data.color).toBe('#33aaff');
    const updated = await api.PATCH('/api/v1/event-types/{id}', { params: { path: { id } }, body: { duration: 45, is_active: false } });
    expect(updated.data.data).toMatchObject({ duration: 45, is_active: false });
    const inactive = await api.GET('/api/v1/event-types', { params: { query: { active: false } } });
    expect(inactive.data.data.map((t) => t.id)).toContain(id);
    await api.DELETE('/api/v1/event-types/{id}', { params: { path: { id } } });
    expect((await failure(api.GET('/api/v1/event-types/{id}', { params: { path: { id } } }))).status).toBe(404);
  });

  it('when an event fills up, then registrations stop at its capacity, counts show it and a cancellation frees a place', async () => {
    const created = await api.POST('/api/v1/events', {
      body: {
        title: 'Open studio',
        start_date: day(10),
        start_time: '18:00',
        end_time: '20:00',
        timezone: 'UTC',
        slots: 2,
        status: 'published',
      },
    });
    const id = created.data.data.id;
    expect(created.data.data).toMatchObject({ starts_at: `${day(10)}T18:00:00.000Z`, ends_at: `${day(10)}T20:00:00.000Z` });

    const ann = await api.POST('/api/v1/events/{id}/registrations', {
      params: { path: { id } },
      body: { name: 'Ann', email: 'ann@example.com' },
    });
    await api.POST('/api/v1/events/{id}/registrations', { params: { path: { id } }, body: { name: 'Ben', email: 'ben@example.com' } });
    const full = await failure(
      api.POST('/api/v1/events/{id}/registrations', { params: { path: { id } }, body: { name: 'Cat', email: 'cat@example.com' } }),
    );
    expect(full).toMatchObject({ status: 409, code: 'EVENT_FULL' });

    const registrations = await api.GET('/api/v1/events/{id}/registrations', { params: { path: { id } } });
    expect(registrations.data.data.map((r) => r.name).sort()).toEqual(['Ann', 'Ben']);
    const counted = await api.GET('/api/v1/events', {
      params: { query: { include_counts: true, start_date: day(10), end_date: day(10) } },
    });
    expect(counted.data.data.find((e) => e.id === id)?.counts).toEqual({ registrations: 2, remaining: 0, waitlisted: 0, checked_in: 0 });
    await api.DELETE('/api/v1/events/{id}/registrations/{registrationId}', { params: { path: { id, registrationId: ann.data.data.id } } });
    const event = await api.GET('/api/v1/events/{id}', { params: { path: { id } } });
    expect(event.data.data.status).toBe('published');
    const recounted = await api.GET('/api/v1/events', { params: { query: { include_counts: true, upcoming: true } } });
    expect(recounted.data.data.find((e) => e.id === id)?.counts).toEqual({ registrations: 1, remaining: 1, waitlisted: 0, checked_in: 0 });
  });

  it('when an event is updated and deleted, then a read afterwards is a typed 404', async () => {
    const id = (await api.POST('/api/v1/events', { body: { title: 'Draft talk', start_date: day(20) } })).data.data.id;

    const updated = await api.PATCH('/api/v1/events/{id}', { params: { path: { id } }, body: { title: 'Talk', status: 'published' } });
    expect(updated.data.data).toMatchObject({ title: 'Talk', status: 'published' });
    await api.DELETE('/api/v1/events/{id}', { params: { path: { id } } });

    expect(await failure(api.GET('/api/v1/events/{id}', { params: { path: { id } } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
