import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { NATS_TOPOLOGY, type EventContract, type ScheduleRecord, type SlotsResponse } from '@app/contracts';
import type { Bus, KitTuningOverrides } from '@app/service-kit';
import { anonymousHeaders, publishDomainEvent, startTestService, withNeighbourBus, type RunningService } from '@app/service-testing';
import type { z } from 'zod';
import { configSchema, type Config } from '../../src/config.js';
import { createServiceDefinition } from '../../src/service.js';

/** The service, and a bus of its neighbours (bookings, calendar-sync) on its prefix: they ask it and publish to it. */
export type Running = RunningService<Config> & { neighbour: Bus };

/** A Monday, 08:00 UTC: the pinned "now" of the integration tests unless a test moves it. */
export const NOW = new Date('2026-03-02T08:00:00.000Z');

/**
 * The service on the run's database with a NATS prefix of this test file's own, so its consumers and
 * request endpoints (with this file's clock) never share work with another file's instance. `env` adds to its
 * configuration (a DATABASE_URL in it is the superuser's, as in startTestService); `tuning` replaces kit constants.
 */
export function startScheduling(
  now: () => Date = () => NOW,
  env: Record<string, string> = {},
  tuning: KitTuningOverrides = {},
): Promise<Running> {
  const NATS_PREFIX = `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
  return withNeighbourBus(NATS_PREFIX, NATS_TOPOLOGY.scheduling.consumes, () =>
    startTestService(createServiceDefinition({ now }), configSchema, { ...env, NATS_PREFIX }, tuning),
  );
}

export async function createSchedule(running: Running, headers: Record<string, string>, body: object = {}): Promise<ScheduleRecord> {
  const response = await running.app.inject({
    method: 'POST',
    url: '/api/v1/schedules',
    headers,
    payload: { name: 'Consulting', ...body },
  });
  if (response.statusCode !== 201) throw new Error(`schedule not created: ${response.body}`);
  return response.json<{ data: ScheduleRecord }>().data;
}

export async function getSlots(running: Running, query: Record<string, string>, headers: Record<string, string> = anonymousHeaders()) {
  const response = await running.app.inject({ method: 'GET', url: '/api/bookings/slots', query, headers });
  return { status: response.statusCode, body: response.json<SlotsResponse & { error?: string; code?: string }>() };
}

/** The start instants of the slots of a one-day (or longer) range, flattened. */
export async function slotStarts(running: Running, scheduleId: string, date: string): Promise<string[]> {
  const { status, body } = await getSlots(running, { scheduleId, startDate: date, endDate: date });
  if (status !== 200) throw new Error(`slots failed: ${JSON.stringify(body)}`);
  return body.days.flatMap((day) => day.slots.map((slot) => slot.start));
}

/** Publishes a domain event the way a producer's outbox relay does (envelope, msgID = event id). */
export async function publishEvent<D extends z.ZodType>(
  running: Running,
  contract: EventContract<D>,
  data: z.input<D>,
  options: { organizationId?: string; id?: string } = {},
): Promise<string> {
  const organizationId = options.organizationId ?? (await scheduleOwner(running, data));
  return publishDomainEvent(running.neighbour, contract, data, { organizationId, ...(options.id ? { id: options.id } : {}) });
}

/** How long `expect.poll` waits for a consumer or the relay to catch up. */
export const POLL = { timeout: 10_000, interval: 50 };

/** The day the projection tests book on: a Tuesday. */
export const DAY = '2026-03-03';
/** A schedule body open 09:00–12:00 UTC on Tuesdays and Wednesdays: six half-hour slots on DAY. */
export const morning = { availability: ['tuesday', 'wednesday'].map((day) => ({ day, start: '09:00', end: '12:00' })) };
export const allMorning = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((time) => `${DAY}T${time}:00.000Z`);
/** The slot starts of DAY's morning without the slots starting at `times` (`HH:MM`). */
export const without = (...times: string[]) => allMorning.filter((start) => !times.some((time) => start === `${DAY}T${time}:00.000Z`));

/** The organization of the schedule an event names (events speak for the schedule's organization), else a random one. */
async function scheduleOwner(running: Running, data: unknown): Promise<string> {
  const scheduleId = (data as { schedule_id?: unknown } | null)?.schedule_id;
  const { rows } = await running.infra.pool.query<{ organization_id: string }>(
    'SELECT organization_id::text AS organization_id FROM schedules WHERE id::text = $1',
    [typeof scheduleId === 'string' ? scheduleId : ''],
  );
  return rows[0]?.organization_id ?? randomUUID();
}
