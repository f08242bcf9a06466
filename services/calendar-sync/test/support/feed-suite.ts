import { randomUUID } from 'node:crypto';
import { bookingFeedRequest, scheduleGetRequest, type BookingFeedItem } from '@app/contracts';
import { scheduleNotFound } from '@app/service-kit';
import {
  anonymousHeaders,
  FakeProviders,
  FileDatabase,
  fakeResponder,
  organizationHeaders,
  ownNatsPrefix,
  type FakeResponder,
  type RunningService,
} from '@app/service-testing';
import ICAL from 'ical.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { startCalendarSync } from './harness.js';

const PUBLIC_BASE_URL = 'https://book.example.com';
export const DAY_MS = 86_400_000;

/**
 * Scheduling and bookings faked at their NATS boundary on this file's own prefix, with state: schedules belong to
 * one organization (scheduling's SCHEDULE_NOT_FOUND for any other), and each schedule has the bookings a test gives it.
 */
class Neighbours {
  readonly schedules = new Map<string, string>();
  readonly bookings = new Map<string, BookingFeedItem[]>();

  constructor(readonly responder: FakeResponder) {}

  async answer(): Promise<void> {
    await this.responder.answer(scheduleGetRequest, (request) => {
      if (this.schedules.get(request.schedule_id.toLowerCase()) !== request.organization_id) throw scheduleNotFound();
      const id = request.schedule_id.toLowerCase();
      return { id, name: 'Desk', timezone: 'Europe/Berlin', slot_duration: 30, buffer_before: 0, buffer_after: 0, is_active: true };
    });
    await this.responder.answer(bookingFeedRequest, (request) => {
      const own = this.schedules.get(request.schedule_id) === request.organization_id;
      return { bookings: own ? (this.bookings.get(request.schedule_id) ?? []) : [], next: null };
    });
  }

  schedule(organizationId: string, bookings: BookingFeedItem[] = []): string {
    const id = randomUUID();
    this.schedules.set(id, organizationId);
    this.bookings.set(id, bookings);
    return id;
  }
}

export function booking(overrides: Partial<BookingFeedItem> = {}): BookingFeedItem {
  const start = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + 2 * DAY_MS + 9 * 3_600_000);
  return {
    booking_id: randomUUID(),
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 30 * 60_000).toISOString(),
    status: 'PENDING',
    summary: 'Booking: Ada Lovelace',
    version: 1,
    updated_at: new Date(Date.now() - 60_000).toISOString(),
    ...overrides,
  };
}

/** A VEVENT as the tests compare it. */
export interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  startIsUtc: boolean;
  endIsUtc: boolean;
  status: string;
  sequence: number;
  stamp: string;
}

/** The VEVENTs of an ICS body as ical.js reads them: the second library that checks what ical-generator wrote. */
export function parsedEvents(body: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(body));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      startIsUtc: event.startDate.zone?.tzid === 'UTC',
      endIsUtc: event.endDate.zone?.tzid === 'UTC',
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
      stamp: String(vevent.getFirstPropertyValue('dtstamp')),
    };
  });
}

/**
 * A file's calendar-sync for ICS feeds, on its own database and NATS prefix with its Neighbours, and the calls of
 * the feed routes: management as the organization calls it, the feed URL as the gateway forwards it.
 */
export function feedSuite() {
  const fake = new FakeProviders();
  const database = FileDatabase.create();
  let running: RunningService<Config> | undefined;
  let neighbours: Neighbours | undefined;

  beforeAll(async () => {
    const prefix = ownNatsPrefix('ics');
    neighbours = new Neighbours(await fakeResponder(prefix));
    await neighbours.answer();
    await fake.start();
    running = await startCalendarSync(fake, database, { NATS_PREFIX: prefix, PUBLIC_BASE_URL });
  });
  afterAll(async () => {
    await running?.stop();
    await neighbours?.responder.stop();
    await fake.stop();
    await database.drop();
  });

  const started = () => {
    if (!running || !neighbours) throw new Error('calendar-sync is not started yet: use the suite inside tests and hooks');
    return { running, neighbours };
  };
  const create = (headers: Record<string, string>, scheduleId: string) =>
    started().running.app.inject({ method: 'POST', url: `/api/v1/schedules/${scheduleId}/ics-feed`, headers });
  return {
    get running() {
      return started().running;
    },
    get neighbours() {
      return started().neighbours;
    },
    organization: () => {
      const id = randomUUID();
      return { id, headers: organizationHeaders(id) };
    },
    create,
    remove: (headers: Record<string, string>, scheduleId: string) =>
      started().running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${scheduleId}/ics-feed`, headers }),
    /** The feed's URL, made by its POST. */
    feedOf: async (headers: Record<string, string>, scheduleId: string): Promise<string> => {
      const response = await create(headers, scheduleId);
      expect(response.statusCode).toBe(201);
      return (response.json() as { data: { url: string } }).data.url;
    },
    /** GET of a feed URL (or a path) as the gateway forwards it: no organization (the token is all there is). */
    read: (url: string, headers: Record<string, string> = {}) =>
      started().running.app.inject({ url: new URL(url, PUBLIC_BASE_URL).pathname, headers: { ...anonymousHeaders(), ...headers } }),
  };
}
