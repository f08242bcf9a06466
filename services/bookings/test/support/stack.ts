import { randomUUID } from 'node:crypto';
import { organizationHeaders, startTestService, type RunningService } from '@app/service-kit/testing';
import { configSchema as eventsConfigSchema, type Config as EventsConfig } from '../../../events/src/config.js';
import { service as eventsService } from '../../../events/src/service.js';
import { configSchema as schedulingConfigSchema, type Config as SchedulingConfig } from '../../../scheduling/src/config.js';
import { service as schedulingService } from '../../../scheduling/src/service.js';
import { configSchema, type Config } from '../../src/config.js';
import { service } from '../../src/service.js';

/**
 * The bookings service with the real scheduling and events services beside it, in this process, on
 * the run's database and NATS prefix: bookings asks them over NATS exactly as in production.
 */
export interface Stack {
  bookings: RunningService<Config>;
  scheduling: RunningService<SchedulingConfig>;
  events: RunningService<EventsConfig>;
  stop(): Promise<void>;
}

export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const [scheduling, events] = await Promise.all([
    startTestService(schedulingService, schedulingConfigSchema, env),
    startTestService(eventsService, eventsConfigSchema, env),
  ]);
  const bookings = await startTestService(service, configSchema, env);
  const stack: Stack = {
    bookings,
    scheduling,
    events,
    // Reads the fields at stop time: a test may have replaced a service (stopped and started again).
    async stop() {
      await stack.bookings.stop();
      await Promise.all([stack.scheduling.stop(), stack.events.stop()]);
    },
  };
  return stack;
}

/** Starts only the bookings service, e.g. with a NATS prefix no other service answers on. */
export function startBookings(env: Record<string, string> = {}): Promise<RunningService<Config>> {
  return startTestService(service, configSchema, env);
}

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, unknown>;
  body: { data: T; meta?: { total: number; limit: number; offset: number; hasMore: boolean }; error?: string; code?: string };
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
