import {
  bookingCancelledEvent,
  bookingRescheduledEvent,
  bookingStatusChangedEvent,
  bookingUpdatedEvent,
  type BookingRecord,
  type UpdateBookingBody,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  withTransaction,
  type Caller,
  type IfMatch,
  type Queryable,
  type Versioned,
} from '@app/service-kit';
import { bookingState, type Booking } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { planCancel, planUpdate, type UpdatePlan, type UpdateRequest, type UpdateStep } from '../domain/booking-update.js';
import { findBooking, lockBooking, saveBooking } from '../db/booking.repository.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import { lockSchedule } from '../db/schedule-lock.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable } from './upstream-checks.js';
import { slotTakenIfOverlap } from './booking-create.use-case.js';

function toUpdateRequest(body: UpdateBookingBody): UpdateRequest {
  return {
    status: body.status,
    details: { title: body.title, location: body.location, locationType: body.location_type, metadata: body.metadata },
    interval: body.start_time && body.end_time ? { startTime: body.start_time, endTime: body.end_time } : undefined,
  };
}

/** Which booking a change is for, and the ETag (If-Match) it is meant for, if any. */
interface ChangeTarget {
  id: string;
  ifMatch: IfMatch | undefined;
}

/**
 * Applies a planned change under the booking's row lock: concurrent changes of one booking run one
 * after the other, and each is judged against the state the previous one left (one wins, the other
 * sees the new state, and a stale If-Match its 412). The write itself also holds the schedule's write lock
 * (see schedule-lock.ts). The new state and one event per step commit together.
 */
async function applyLocked(
  ctx: UseCaseContext,
  caller: Caller,
  { id, ifMatch }: ChangeTarget,
  plan: (current: Booking) => UpdatePlan,
): Promise<Booking> {
  const saved = await retryOnDeadlock(() =>
    withTransaction(ctx.pool, async (tx) => {
      const current = await lockBooking(tx, caller.organizationId, id);
      if (!current) throw notFound('Booking');
      requireMatch(ifMatch, current);
      const planned = plan(current);
      if (planned.refusal !== undefined) throw new AppError('INVALID_TRANSITION', planned.refusal);
      if (planned.steps.length === 0) return { booking: current, changed: false };
      // Row lock first, then the schedule's: creates take only the latter, so no two writers wait in a circle.
      await lockSchedule(tx, current.scheduleId);
      await saveBooking(tx, planned.result);
      await recordSteps(tx, current, planned.steps, caller);
      return { booking: planned.result, changed: true };
    }),
  ).catch((error: unknown) => {
    throw slotTakenIfOverlap(error);
  });
  if (saved.changed) ctx.relay.wake();
  return saved.booking;
}

/**
 * PATCH /api/v1/bookings/{id}. A reschedule first passes the creation checks (schedule still active,
 * interval inside availability) outside the transaction; the overlap check is the exclusion constraint.
 */
export async function updateBooking(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, changes, ifMatch }: { id: string; changes: UpdateBookingBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<BookingRecord>> {
  const id = recordId(rawId, 'Booking');
  const request = toUpdateRequest(changes);
  if (request.interval) {
    const current = await findBooking(ctx.prisma, caller.organizationId, id);
    if (!current) throw notFound('Booking');
    // Refuse what the state forbids (a stale If-Match first, as the locked write would) before asking other services anything.
    requireMatch(ifMatch, current);
    const early = planUpdate(current, request, ctx.now());
    if (early.refusal !== undefined) throw new AppError('INVALID_TRANSITION', early.refusal);
    await verifyBookable(
      ctx,
      { organizationId: caller.organizationId, scheduleId: current.scheduleId, ...request.interval },
      caller.requestId,
    );
  }
  const saved = await applyLocked(ctx, caller, { id, ifMatch }, (current) => planUpdate(current, request, ctx.now()));
  return { record: bookingRecord(saved), version: saved.version };
}

/** DELETE /api/v1/bookings/{id}: a soft cancel from PENDING or CONFIRMED. */
export async function cancelBooking(
  ctx: UseCaseContext,
  caller: Caller,
  { id, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<BookingRecord> {
  return bookingRecord(
    await applyLocked(ctx, caller, { id: recordId(id, 'Booking'), ifMatch }, (current) => planCancel(current, ctx.now())),
  );
}

/**
 * One event per step of a change, each with the version that step produced and (but a cancellation) the record's
 * fields as the step before left them (`previous_attributes`).
 */
async function recordSteps(tx: Queryable, current: Booking, steps: UpdateStep[], caller: Caller): Promise<void> {
  const context = eventContextOf(caller);
  let before = bookingRecord(current);
  for (const step of steps) {
    const record = bookingRecord(step.after);
    const state = { ...bookingState(step.after), record };
    const previous_attributes = previousAttributes(before, record);
    if (step.kind === 'updated') {
      await recordEvent(tx, bookingUpdatedEvent, { ...state, changed: step.changed, previous_attributes }, context);
    } else if (step.kind === 'rescheduled') {
      const previous = { previous_start_time: step.previousStart.toISOString(), previous_end_time: step.previousEnd.toISOString() };
      await recordEvent(tx, bookingRescheduledEvent, { ...state, ...previous, previous_attributes }, context);
    } else if (step.after.status === 'CANCELLED') {
      await recordEvent(tx, bookingCancelledEvent, { ...state, previous_status: step.previousStatus }, context);
    } else {
      await recordEvent(tx, bookingStatusChangedEvent, { ...state, previous_status: step.previousStatus, previous_attributes }, context);
    }
    before = record;
  }
}
