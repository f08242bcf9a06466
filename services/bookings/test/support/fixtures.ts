import { randomUUID } from 'node:crypto';
import type { BookingStatus } from '@app/contracts';
import { call, type Stack } from './stack.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MINUTE = 60_000;

/** A schedule of the organization, created through the scheduling service's HTTP API (open around the clock by default). */
export async function createSchedule(stack: Stack, organizationId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await call<{ id: string }>(stack.scheduling, organizationId, 'POST', '/api/v1/schedules', {
    name: 'Consultations',
    timezone: 'UTC',
    slot_duration: 30,
    availability: DAYS.map((day) => ({ day, start: '00:00', end: '24:00' })),
    ...overrides,
  });
  if (reply.status !== 201) throw new Error(`schedule not created: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** An event type of the organization, created through the events service's HTTP API. */
export async function createEventType(stack: Stack, organizationId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await call<{ id: string }>(stack.events, organizationId, 'POST', '/api/v1/event-types', {
    title: 'Intro call',
    duration: 30,
    ...overrides,
  });
  if (reply.status !== 201) throw new Error(`event type not created: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** Midnight UTC `days` days from now: far enough ahead for any minimum notice, near enough for slot queries. */
export function futureDay(days = 7): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
}

/** `[start, end)` as ISO strings: `minutes` after `day`'s midnight, lasting `duration` minutes. */
export function interval(day: Date, minutes: number, duration = 30): { start_time: string; end_time: string } {
  const start = new Date(day.getTime() + minutes * MINUTE);
  return { start_time: start.toISOString(), end_time: new Date(start.getTime() + duration * MINUTE).toISOString() };
}

export function bookingBody(scheduleId: string, times: { start_time: string; end_time: string }, extra: Record<string, unknown> = {}) {
  return {
    schedule_id: scheduleId,
    ...times,
    attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    ...extra,
  };
}

export { eventually } from '@app/service-kit/testing';

/** How to bring a new (PENDING) booking into each state through the API. */
const PATH_TO: Record<BookingStatus, BookingStatus[]> = {
  PENDING: [],
  CONFIRMED: ['CONFIRMED'],
  CANCELLED: ['CANCELLED'],
  COMPLETED: ['CONFIRMED', 'COMPLETED'],
  NO_SHOW: ['CONFIRMED', 'NO_SHOW'],
};

/** A booking of a fresh organization (on a schedule of its own) at `times`, brought into `status`. */
export async function bookingIn(stack: Stack, status: BookingStatus, times: { start_time: string; end_time: string }) {
  const organizationId = randomUUID();
  const scheduleId = await createSchedule(stack, organizationId);
  const created = await call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, times));
  if (created.status !== 201) throw new Error(`booking not created: ${created.status} ${JSON.stringify(created.body)}`);
  const id = String(created.body.data.id);
  for (const step of PATH_TO[status]) {
    const moved = await call(stack.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: step });
    if (moved.status !== 200) throw new Error(`booking not moved to ${step}: ${moved.status}`);
  }
  return { organizationId, scheduleId, id, created: created.body.data };
}
