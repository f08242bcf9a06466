import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { NATS_TOPOLOGY, type BookingStatus, type EventContract } from '@app/contracts';
import type { Bus } from '@app/service-kit';
import {
  organizationClient,
  publishDomainEvent,
  startTestService,
  withNeighbourBus,
  type InjectedReply,
  type RunningService,
} from '@app/service-testing';
import type { z } from 'zod';
import { configSchema, type Config, type Tuning } from '../../src/config.js';
import type { Resolve } from '@app/service-kit';
import { createServiceDefinition } from '../../src/service.js';

/** The service, and a bus of its neighbours (the producing services) on its prefix: they publish to it. */
export type Running = RunningService<Config> & { neighbour: Bus };

/** Short retries and polls, so a whole schedule runs within a test. */
const FAST = { WEBHOOKS_RETRY_SCHEDULE_MS: '150,150', WEBHOOKS_TIMEOUT_MS: '2000' };
const FAST_TUNING: Partial<Tuning> = { pollMs: 100 };

/**
 * The service on the run's database with a NATS prefix of this test file's own, so its durable consumers never
 * share events with another file's instance. `tuning` replaces some of its constants beyond the quick poll.
 */
export function startWebhooks(
  env: Record<string, string> = {},
  options: { resolve?: Resolve; natsPrefix?: string; tuning?: Partial<Tuning> } = {},
): Promise<Running> {
  // A prefix of its own unless given: a restarted instance takes over the durables of the one before.
  const NATS_PREFIX = options.natsPrefix ?? `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
  return withNeighbourBus(NATS_PREFIX, NATS_TOPOLOGY.webhooks.consumes, () =>
    startTestService(createServiceDefinition({ resolve: options.resolve, tuning: { ...FAST_TUNING, ...options.tuning } }), configSchema, {
      NATS_PREFIX,
      ...FAST,
      ...env,
    }),
  );
}

/** Publishes a domain event of `organizationId` the way its producer's outbox relay does; returns its id. */
export function publishEvent<D extends z.ZodType>(
  running: Pick<Running, 'neighbour'>,
  contract: EventContract<D>,
  data: z.input<D>,
  organizationId: string,
): Promise<string> {
  return publishDomainEvent(running.neighbour, contract, data, { organizationId });
}

export type Reply = InjectedReply;

/** An API client for one organization, talking to the service the way the gateway does. */
export function client(running: Running, organizationId?: string) {
  return organizationClient(running.app, organizationId);
}
export type Client = ReturnType<typeof client>;

export function data(reply: Reply): Record<string, unknown> {
  return reply.body.data as Record<string, unknown>;
}

export function list(reply: Reply): Record<string, unknown>[] {
  return reply.body.data as Record<string, unknown>[];
}

/** How long `expect.poll` waits for the consumers and the delivery loop. */
export const POLL = { timeout: 10_000, interval: 50 };

/** Booking state as bookings events carry it. */
/** The booking record (as GET shows it) that a booking event with `state` carries. */
export function bookingRecord(state: ReturnType<typeof bookingState>) {
  return {
    id: state.booking_id,
    schedule_id: state.schedule_id,
    event_type_id: state.event_type_id,
    start_time: state.start_time,
    end_time: state.end_time,
    status: state.status,
    title: null,
    timezone: null,
    location: null,
    location_type: null,
    metadata: null,
    attendee: { name: 'Ada', email: 'ada@example.com', phone: null, timezone: null, notes: null },
    attendee_name: 'Ada',
    attendee_email: 'ada@example.com',
    cancelled: false,
    created_at: '2031-03-01T09:00:00.000Z',
    updated_at: '2031-03-01T09:00:00.000Z',
  };
}

export function bookingState(overrides: Record<string, unknown> = {}) {
  return {
    booking_id: randomUUID(),
    schedule_id: randomUUID(),
    event_type_id: null,
    status: 'PENDING' as BookingStatus,
    start_time: '2031-03-03T10:00:00.000Z',
    end_time: '2031-03-03T10:30:00.000Z',
    version: 1,
    seats: 1,
    ...overrides,
  };
}
