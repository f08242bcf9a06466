import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { z } from 'zod';
import { availabilityCheckRequest, eventTypeGetRequest, NATS_TOPOLOGY, type ListMeta } from '@app/contracts';
import type { Bus } from '@app/service-kit';
import {
  fakeResponder,
  organizationHeaders,
  ownNatsPrefix,
  startTestService,
  withNeighbourBus,
  type FakeResponder,
  type RunningService,
} from '@app/service-testing';
import { configSchema, type Config } from '../../src/config.js';
import { service } from '../../src/service.js';

/**
 * The bookings service on a NATS prefix of the file's own, with scheduling and events faked at their NATS
 * boundary: each test states what they answer (`suite.neighbours.answer / fail / silent`). Before every test
 * they are back to `answerAsOpenNeighbours`. The streams it consumes (calendar-sync's) exist before it starts, and
 * `bookings.neighbour` publishes to them as their producers do (`publishDomainEvent`).
 */
export interface BookingsSuite {
  readonly bookings: RunningService<Config> & { neighbour: Bus };
  readonly neighbours: FakeResponder;
}

export function bookingsSuite(env: Record<string, string> = {}): BookingsSuite {
  let started: BookingsSuite | undefined;
  beforeAll(async () => {
    const prefix = ownNatsPrefix('bookings');
    const neighbours = await fakeResponder(prefix);
    await answerAsOpenNeighbours(neighbours);
    try {
      const bookings = await withNeighbourBus(prefix, NATS_TOPOLOGY.bookings.consumes, () =>
        startBookings({ NATS_PREFIX: prefix, ...env }),
      );
      started = { neighbours, bookings };
    } catch (error) {
      await neighbours.stop();
      throw error;
    }
  });
  beforeEach(async () => {
    if (!started) return;
    started.neighbours.forget();
    await answerAsOpenNeighbours(started.neighbours);
  });
  afterAll(async () => {
    await started?.bookings.stop();
    await started?.neighbours.stop();
  });
  const get = (): BookingsSuite => {
    if (!started) throw new Error('bookings is not started yet: use the suite inside tests and hooks');
    return started;
  };
  return {
    get bookings() {
      return get().bookings;
    },
    get neighbours() {
      return get().neighbours;
    },
  };
}

type AvailabilityAnswer = z.input<typeof availabilityCheckRequest.reply>;
type EventTypeAnswer = z.input<typeof eventTypeGetRequest.reply>;

/** Scheduling's answer that the interval is bookable, in the schedule's zone `timezone`. */
function available(timezone = 'UTC'): AvailabilityAnswer {
  return { available: true, reason: null, timezone };
}

/** Scheduling's answer that the interval is not bookable, and why. */
export function unavailable(reason: AvailabilityAnswer['reason']): AvailabilityAnswer {
  return { available: false, reason, timezone: 'UTC' };
}

/** Events' answer for an event type it knows (active). */
function eventTypeAnswer(id: string): EventTypeAnswer {
  return { id, title: 'Intro call', slug: 'intro-call', duration: 30, location_type: 'video', requires_approval: false, is_active: true };
}

/**
 * Scheduling says every interval of every schedule is available (the schedule's zone: `timezone`); events knows
 * every event type asked for. What a test does not state otherwise.
 */
export async function answerAsOpenNeighbours(neighbours: FakeResponder, timezone = 'UTC'): Promise<void> {
  await neighbours.answer(availabilityCheckRequest, () => available(timezone));
  await neighbours.answer(eventTypeGetRequest, ({ event_type_id }) => eventTypeAnswer(event_type_id));
}

/** Starts only the bookings service, e.g. with a NATS prefix nobody answers on. */
export function startBookings(env: Record<string, string> = {}): Promise<RunningService<Config>> {
  return startTestService(service, configSchema, env);
}

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, unknown>;
  body: { data: T; meta?: ListMeta; error?: string; code?: string };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Calls a service the way the gateway does: with the organization's trusted headers. */
export async function call<T = Record<string, unknown>>(
  running: Pick<RunningService<never>, 'app'>,
  organizationId: string,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const response = await running.app.inject({
    method,
    url,
    headers: { ...organizationHeaders(organizationId), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

/** One booking's routes, as its organization calls them: read, change, cancel. */
export function bookingRoutes(suite: Pick<BookingsSuite, 'bookings'>) {
  const url = (id: string) => `/api/v1/bookings/${id}`;
  return {
    get: (organizationId: string, id: string): Promise<Reply> => call(suite.bookings, organizationId, 'GET', url(id)),
    patch: (organizationId: string, id: string, body: unknown): Promise<Reply> =>
      call(suite.bookings, organizationId, 'PATCH', url(id), body),
    remove: (organizationId: string, id: string): Promise<Reply> => call(suite.bookings, organizationId, 'DELETE', url(id)),
  };
}

/** An organization of its own for each test, so tests never see each other's data. */
export function newOrganization(): string {
  return randomUUID();
}

/** Replies as `status CODE` (or just the status), counted: a failed concurrency assertion shows what came back. */
export function tally(replies: Reply<unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    const key = reply.body.code ? `${reply.status} ${reply.body.code}` : String(reply.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
