import { describe } from 'vitest';
import {
  describeIdempotentCreates,
  listedCount,
  organizationHeaders,
  postWithKey,
  startedForTests,
  type IdempotentCaller,
} from '@app/service-testing';
import { client, data, openEvent, startEvents } from './support/harness.js';

describe('Idempotency-Key on the events service', () => {
  const running = startedForTests(startEvents);

  /** A caller of a fresh organization creating at `url` and counting at `listUrl` (defaults to `url`). */
  function callerOf(
    headers: Record<string, string>,
    url: string,
    bodies: Record<'same' | 'other', unknown>,
    listUrl = url,
  ): IdempotentCaller {
    return {
      create: (key, body = 'same') => postWithKey(running.app, url, headers, key, bodies[body]),
      count: () => listedCount(running.app, listUrl, headers),
    };
  }

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/event-types',
      arrange: async () =>
        callerOf(organizationHeaders(), '/api/v1/event-types', {
          same: { title: 'Intro call', duration: 30 },
          other: { title: 'Deep dive', duration: 90 },
        }),
    },
    {
      name: 'POST /api/v1/events',
      arrange: async () =>
        callerOf(organizationHeaders(), '/api/v1/events', {
          same: openEvent({ title: 'Workshop' }),
          other: openEvent({ title: 'Meetup' }),
        }),
    },
    {
      name: 'POST /api/v1/events/{id}/registrations',
      async arrange() {
        const api = client(running);
        const event = await api.post('/api/v1/events', openEvent({ slots: 100 }));
        if (event.status !== 201) throw new Error(`event not created: ${JSON.stringify(event.body)}`);
        const url = `/api/v1/events/${String(data(event).id)}/registrations`;
        return callerOf(organizationHeaders(api.organizationId), url, {
          same: { name: 'Ann', email: 'ann@example.com' },
          other: { name: 'Bob', email: 'bob@example.com', quantity: 2 },
        });
      },
    },
  ]);
});
