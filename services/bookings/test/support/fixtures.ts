import { randomUUID } from 'node:crypto';
import type { BookingStatus } from '@app/contracts';
import type { Config } from '../../src/config.js';
import type { RunningService } from '@app/service-testing';
import { call, type BookingsSuite } from './harness.js';

const MINUTE = 60_000;

/**
 * The id of a schedule: scheduling is faked at its NATS boundary, so a schedule is whatever id the fake neighbour
 * is asked about (see `answerAsOpenNeighbours`); a fresh one per test keeps tests apart.
 */
export function newScheduleId(): string {
  return randomUUID();
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

export { eventually } from '@app/service-testing';

/** How to bring a new (PENDING) booking into each state through the API. */
const PATH_TO: Record<BookingStatus, BookingStatus[]> = {
  PENDING: [],
  CONFIRMED: ['CONFIRMED'],
  CANCELLED: ['CANCELLED'],
  COMPLETED: ['CONFIRMED', 'COMPLETED'],
  NO_SHOW: ['CONFIRMED', 'NO_SHOW'],
};

/** A booking of a fresh organization (on a schedule of its own) at `times`, brought into `status`. */
async function bookingIn(bookings: RunningService<Config>, status: BookingStatus, times: { start_time: string; end_time: string }) {
  const organizationId = randomUUID();
  const scheduleId = newScheduleId();
  const created = await call(bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(scheduleId, times));
  if (created.status !== 201) throw new Error(`booking not created: ${created.status} ${JSON.stringify(created.body)}`);
  const id = String(created.body.data.id);
  for (const step of PATH_TO[status]) {
    const moved = await call(bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: step });
    if (moved.status !== 200) throw new Error(`booking not moved to ${step}: ${moved.status}`);
  }
  return { organizationId, scheduleId, id, created: created.body.data };
}

/** Makes bookings of fresh organizations (as bookingIn), each at the next half hour of `day`. */
export function bookingsOn(suite: Pick<BookingsSuite, 'bookings'>, day: Date) {
  let slot = 0;
  return (status: BookingStatus = 'PENDING') => {
    slot += 1;
    return bookingIn(suite.bookings, status, interval(day, slot * 30));
  };
}
