import { afterAll, beforeAll, describe } from 'vitest';
import {
  describeCursorWalkUnderInserts,
  describeListPaging,
  type Listed,
  type ListReply,
  type OrderedListCaller,
  type PagedListCaller,
} from '@app/service-testing';
import { client, data, openEvent, startEvents, type Client, type Reply, type Running } from './support/harness.js';

let running: Running;
beforeAll(async () => {
  running = await startEvents();
});
afterAll(() => running.stop());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const asListReply = (reply: Reply): ListReply => reply as unknown as ListReply;

async function created(reply: Promise<Reply>): Promise<string> {
  const { status, body } = await reply;
  if (status !== 201) throw new Error(`not created: ${status} ${JSON.stringify(body)}`);
  return String(data({ status, body }).id);
}

async function changed(reply: Promise<Reply>): Promise<void> {
  const { status, body } = await reply;
  if (status !== 200) throw new Error(`not changed: ${status} ${JSON.stringify(body)}`);
}

describe('GET /api/v1/events, /api/v1/event-types and registrations by cursor and updated_since', () => {
  /**
   * An organization's events, a day apart at 10:00 UTC, and one placed a minute before or after any listed one; with
   * `past`, the list of past events (most recent first) and events of 2020.
   */
  function events(past = false): OrderedListCaller {
    const api = client(running);
    const path = past ? '/api/v1/events?past=true&' : '/api/v1/events?';
    const first = Date.parse(past ? '2020-01-01T10:00:00Z' : '2031-01-01T10:00:00Z');
    let made = 0;
    const eventAt = (at: number) => {
      const instant = new Date(at).toISOString();
      return created(api.post('/api/v1/events', { title: 'Event', start_date: instant.slice(0, 10), start_time: instant.slice(11, 16) }));
    };
    return {
      list: async (query) => asListReply(await api.get(`${path}${query}`)),
      create: () => eventAt(first + (made += 1) * DAY),
      update: (id) => changed(api.patch(`/api/v1/events/${id}`, { title: 'Renamed' })),
      insertNear: (record: Listed, side) =>
        eventAt(Date.parse(String(record.starts_at)) + ((side === 'before') !== past ? -MINUTE : MINUTE)),
    };
  }

  function eventTypes(): PagedListCaller {
    const api = client(running);
    return {
      list: async (query) => asListReply(await api.get(`/api/v1/event-types?${query}`)),
      create: () => created(api.post('/api/v1/event-types', { title: 'Intro call', duration: 30 })),
      update: (id) => changed(api.patch(`/api/v1/event-types/${id}`, { title: 'Longer call' })),
    };
  }

  async function registrations(): Promise<PagedListCaller> {
    const api: Client = client(running);
    const eventId = await created(api.post('/api/v1/events', openEvent({ slots: 100 })));
    let made = 0;
    return {
      list: async (query) => asListReply(await api.get(`/api/v1/events/${eventId}/registrations?${query}`)),
      create: () =>
        created(api.post(`/api/v1/events/${eventId}/registrations`, { name: 'Guest', email: `guest${(made += 1)}@example.com` })),
      // A cancellation is the change a registration has.
      update: (id) => changed(api.delete(`/api/v1/events/${eventId}/registrations/${id}`)),
    };
  }

  const eventList = { name: 'GET /api/v1/events', arrange: async () => events(), otherFilter: 'status=draft' };
  const pastEventList = { name: 'GET /api/v1/events?past=true', arrange: async () => events(true), otherFilter: 'status=draft' };
  describeListPaging<PagedListCaller>([
    eventList,
    pastEventList,
    { name: 'GET /api/v1/event-types', arrange: async () => eventTypes(), otherFilter: 'active=false' },
    { name: 'GET /api/v1/events/{id}/registrations', arrange: registrations, otherFilter: 'status=cancelled' },
  ]);
  describeCursorWalkUnderInserts([eventList, pastEventList]);
});
