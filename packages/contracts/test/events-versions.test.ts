import { describe, expect, it } from 'vitest';
import {
  eventDataOfVersion,
  eventCreatedEvent,
  eventUpdatedEvent,
  registrationCancelledEvent,
  registrationCreatedEvent,
} from '../src/index.js';

/** Version 1 of the events service's event and registration events (before ticket types, waitlists, check-in and questions) reads as version 2. */
const eventV1 = {
  id: '0f6d1f0e-5b1a-4c39-9d7e-1b9f7f3b1a01',
  title: 'Workshop',
  description: null,
  start_date: '2031-05-20',
  start_time: '10:00',
  end_time: '12:00',
  timezone: 'UTC',
  starts_at: '2031-05-20T10:00:00.000Z',
  ends_at: '2031-05-20T12:00:00.000Z',
  location: null,
  cost: 0,
  slots: 10,
  status: 'published',
  site_id: null,
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:00:00.000Z',
};

const registrationV1 = {
  id: '4b7d2a55-0c7e-4a0e-8f7a-9d3f1c2b3a04',
  event_id: eventV1.id,
  name: 'Ada',
  email: 'ada@example.com',
  quantity: 2,
  status: 'active',
  created_at: '2026-12-01T10:00:00.000Z',
  cancelled_at: null,
};

function readAsCurrent(contract: Parameters<typeof eventDataOfVersion>[0], data: unknown): unknown {
  const version = eventDataOfVersion(contract, 1);
  if (!version) throw new Error('version 1 is not readable');
  return contract.data.parse(version.upgrade(version.data.parse(data)));
}

describe('events service events of schema_version 1', () => {
  it('when an event of version 1 is read, then its record has no waitlist and no questions, and nobody waited or checked in', () => {
    const created = readAsCurrent(eventCreatedEvent, { id: eventV1.id, status: 'published', record: eventV1 });
    const updated = readAsCurrent(eventUpdatedEvent, {
      id: eventV1.id,
      status: 'published',
      record: { ...eventV1, counts: { registrations: 1, remaining: 9 } },
      previous_attributes: { title: 'Old' },
    });

    expect(eventCreatedEvent.version).toBe(2);
    expect(created).toEqual({ id: eventV1.id, status: 'published', record: { ...eventV1, waitlist: false, questions: [] } });
    expect(updated).toMatchObject({ record: { questions: [], counts: { registrations: 1, remaining: 9, waitlisted: 0, checked_in: 0 } } });
  });

  it('when a registration event of version 1 is read, then it reads without the record it cannot complete', () => {
    for (const contract of [registrationCreatedEvent, registrationCancelledEvent]) {
      const state = { id: registrationV1.id, event_id: eventV1.id, quantity: 2 };

      expect(readAsCurrent(contract, { ...state, record: registrationV1 })).toEqual(state);
    }
  });
});
