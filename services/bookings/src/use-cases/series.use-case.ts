import { randomUUID } from 'node:crypto';
import { bookingCreatedEvent, type BookingSeriesRecord, type CreateBookingSeriesBody, type ErrorCode } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  isAppError,
  issueClientSecret,
  notFound,
  outboxRow,
  recordId,
  requireMatch,
  withTransaction,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { bookingState, bookingTagVersion, newBooking, type Booking } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { planCancel } from '../domain/booking-update.js';
import { requireRoom, requireSeatsFit } from '../domain/capacity.js';
import { occurrences } from '../domain/series-recurrence.js';
import { insertBookingStatement } from '../db/booking-create.repository.js';
import { saveBooking } from '../db/booking.repository.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import { lockSchedule } from '../db/schedule-lock.js';
import { noteClaims, occupancy } from '../db/seat-guard.js';
import { insertSeries, seriesBookings, seriesExists } from '../db/series.repository.js';
import { recordSteps } from './booking-change.use-case.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable, type BookableSchedule } from './upstream-checks.js';

/** One refused occurrence, as the 409's details list it. */
interface Refusal {
  index: number;
  start_time: string;
  code: ErrorCode;
  message: string;
}

/** The codes an occurrence can be refused with (anything else refuses the whole request as it is). */
const OCCURRENCE_CODES = new Set<ErrorCode>(['SLOT_UNAVAILABLE', 'SLOT_TAKEN', 'DAY_LIMIT_REACHED']);

function refusalOf(error: unknown, index: number, startTime: Date): Refusal {
  if (!isAppError(error) || !OCCURRENCE_CODES.has(error.code)) throw error;
  return { index, start_time: startTime.toISOString(), code: error.code, message: error.message };
}

/** 409 with the first refusal's code and message, and every refused occurrence in `details` (API.md "Series"). */
function seriesRefused(refusals: Refusal[]): AppError {
  const [first] = [...refusals].sort((a, b) => a.index - b.index);
  if (!first) throw new Error('seriesRefused needs a refusal');
  const details = refusals
    .sort((a, b) => a.index - b.index)
    .map(({ index, start_time, code, message }) => ({ path: `occurrences.${index}`, message, index, start_time, code }));
  return new AppError(first.code, first.message, 409, details);
}

/**
 * POST /api/v1/booking-series: the occurrences (series-recurrence.ts), each checked with scheduling as a booking is,
 * then all written in ONE transaction under the schedule lock, each judged by the summing path with the occurrences
 * before it already in place — so every refused occurrence is found, and any refusal rolls back all of them.
 */
export async function createSeries(ctx: UseCaseContext, caller: Caller, body: CreateBookingSeriesBody): Promise<BookingSeriesRecord> {
  const times = occurrences({ startTime: body.start_time, endTime: body.end_time }, body.timezone, body.recurrence);
  const checked = await Promise.all(
    times.map((time) =>
      verifyBookable(
        ctx,
        { organizationId: caller.organizationId, scheduleId: body.schedule_id, eventTypeId: body.event_type_id, ...time },
        caller.requestId,
      ).then(
        (schedule) => ({ schedule, error: undefined }),
        (error: unknown) => ({ schedule: undefined, error }),
      ),
    ),
  );
  const refusals: Refusal[] = [];
  const schedules: (BookableSchedule | undefined)[] = checked.map(({ schedule, error }, index) => {
    if (!schedule) refusals.push(refusalOf(error, index, times[index]?.startTime ?? body.start_time));
    return schedule;
  });
  const rules = schedules.find((schedule) => schedule !== undefined);
  if (!rules) throw seriesRefused(refusals);
  const seats = body.seats ?? 1;
  requireSeatsFit(seats, rules);

  const seriesId = randomUUID();
  const now = ctx.now();
  const { recurrence: _recurrence, ...bookingBody } = body;
  const made = times.map((time) => {
    const secret = issueClientSecret();
    const owner = {
      id: randomUUID(),
      organizationId: caller.organizationId,
      scheduleTimezone: rules.timezone,
      seatsPerSlot: rules.seatsPerSlot,
      clientSecretHash: secret.hash,
      seriesId,
    };
    return {
      booking: newBooking({ ...bookingBody, start_time: time.startTime, end_time: time.endTime }, owner, now),
      secret: secret.secret,
    };
  });
  const scheduleId = body.schedule_id.toLowerCase();
  await retryOnDeadlock(() =>
    withTransaction(ctx.pool, async (tx) => {
      const refused = [...refusals];
      await lockSchedule(tx, scheduleId);
      for (const [index, { booking }] of made.entries()) {
        const schedule = schedules[index];
        if (!schedule) continue;
        try {
          requireRoom(seats, schedule, await occupancy(tx, { ...booking, day: schedule.day, now }));
        } catch (error) {
          refused.push(refusalOf(error, index, booking.startTime));
          continue;
        }
        const record = bookingRecord(booking);
        await insertBookingStatement(
          tx,
          booking,
          outboxRow(bookingCreatedEvent, { ...bookingState(booking), record }, eventContextOf(caller)),
        );
      }
      if (refused.length > 0) throw seriesRefused(refused);
      await insertSeries(tx, { id: seriesId, organizationId: caller.organizationId, scheduleId, createdAt: now });
      if (rules.seatsPerSlot > 1) await noteClaims(tx, scheduleId, { shared: true });
    }),
  );
  ctx.relay.wake();
  return { id: seriesId, bookings: made.map(({ booking, secret }) => ({ ...bookingRecord(booking), client_secret: secret })) };
}

/** GET /api/v1/booking-series/{id}: the series' bookings as they are now (no client secrets: those are shown once). */
export async function getSeries(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<BookingSeriesRecord>> {
  const id = recordId(rawId, 'Booking series');
  if (!(await seriesExists(ctx.pool, caller.organizationId, id))) throw notFound('Booking series');
  const bookings = await seriesBookings(ctx.pool, caller.organizationId, id);
  return { record: { id, bookings: bookings.map(bookingRecord) }, version: seriesVersion(bookings) };
}

/** A series shows its bookings and nothing of its own: its ETag is made of theirs, in its order. */
function seriesVersion(bookings: readonly Booking[]): number[] {
  return bookings.flatMap((booking) => [...bookingTagVersion(booking), -1]);
}

/** DELETE /api/v1/booking-series/{id}: cancels its PENDING and CONFIRMED occurrences that have not started, together. */
export async function cancelSeries(
  ctx: UseCaseContext,
  caller: Caller,
  rawId: string,
  ifMatch?: IfMatch,
): Promise<{ id: string; cancelled: number }> {
  const id = recordId(rawId, 'Booking series');
  const cancelled = await retryOnDeadlock(() =>
    withTransaction(ctx.pool, async (tx) => {
      if (!(await seriesExists(tx, caller.organizationId, id))) throw notFound('Booking series');
      const now = ctx.now();
      const bookings = await seriesBookings(tx, caller.organizationId, id, true);
      requireMatch(ifMatch, { id, version: seriesVersion(bookings) });
      const open = bookings.filter(
        (booking: Booking) =>
          (booking.status === 'PENDING' || booking.status === 'CONFIRMED') && booking.startTime.getTime() > now.getTime(),
      );
      const first = open[0];
      if (first) await lockSchedule(tx, first.scheduleId);
      for (const booking of open) {
        const plan = planCancel(booking, now);
        if (plan.refusal !== undefined) continue;
        await saveBooking(tx, plan.result);
        await recordSteps(tx, booking, plan.steps, caller);
      }
      return open.length;
    }),
  );
  if (cancelled > 0) ctx.relay.wake();
  return { id, cancelled };
}
