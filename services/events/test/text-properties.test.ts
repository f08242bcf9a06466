import { describe, it } from 'vitest';
import { createEventBodySchema, createEventTypeBodySchema, createRegistrationBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated, startedForTests, type InjectedReply } from '@app/service-testing';
import { client, startEvents } from './support/harness.js';

const running = startedForTests(startEvents);

const idOf = (reply: InjectedReply) => String((reply.body.data as { id: string }).id);

describe('POST /api/v1/events (any text)', () => {
  it.each([[['title']], [['description']], [['location']], [['site_id']]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      const api = client(running);
      await expectTextStoredAsValidated({
        schema: createEventBodySchema,
        body: () => ({
          title: 'Pottery workshop',
          start_date: '2030-03-02',
          timezone: 'Europe/Berlin',
          description: 'd',
          location: 'l',
          site_id: 's',
        }),
        path,
        create: (body) => api.post('/api/v1/events', body),
        read: (created) => api.get(`/api/v1/events/${idOf(created)}`),
      });
    },
  );
});

describe('POST /api/v1/event-types (any text)', () => {
  it.each([[['title']], [['description']], [['location_details']]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      const api = client(running);
      await expectTextStoredAsValidated({
        schema: createEventTypeBodySchema,
        body: () => ({ title: 'Intro call', duration: 30, description: 'd', location_details: 'l' }),
        path,
        create: (body) => api.post('/api/v1/event-types', body),
        read: (created) => api.get(`/api/v1/event-types/${idOf(created)}`),
      });
    },
  );
});

describe('POST /api/v1/events/{id}/registrations (any text)', () => {
  it.each([[['name']], [['email']]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      const api = client(running);
      const event = await api.post('/api/v1/events', { title: 'Open day', start_date: '2030-03-02', status: 'published' });
      const registrations = `/api/v1/events/${idOf(event)}/registrations`;
      await expectTextStoredAsValidated({
        schema: createRegistrationBodySchema,
        body: () => ({ name: 'Grace Hopper', email: 'grace@example.com' }),
        path,
        create: (body) => api.post(registrations, body),
        // No GET of one registration: the list shows it.
        read: async (created) => {
          const listed = await api.get(`${registrations}?limit=200`);
          const found = (listed.body.data as { id: string }[]).find((registration) => registration.id === idOf(created));
          return { status: found ? 200 : 404, body: { data: found } };
        },
      });
    },
  );
});
