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
  isPublishable,
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
import { bookingState, bookingTagVersion, type Booking } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { requireRoom, type SeatRules } from '../domain/capacity.js';
import { requireClientSecret } from '../domain/client-secret-access.js';
import { planCancel, planUpdate, type UpdatePlan, type UpdateRequest, type UpdateStep } from '../domain/booking-update.js';
import { findBooking, lockBooking, saveBooking } from '../db/booking.repository.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import { lockSchedule } from '../db/schedule-lock.js';
import { noteClaims, occupancy } from '../db/seat-guard.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable, type BookableSchedule } from './upstream-checks.js';
import { slotTakenIfOverlap } from './booking-create.use-case.js';

function toUpdateRequest(body: UpdateBookingBody): UpdateRequest {
  return {
    status: body.status,
    details: { title: body.title, location: body.location, locationType: body.location_type, metadata: body.metadata },
    interval: body.start_time && body.end_time ? { startTime: body.start_time, endTime: body.end_time } : undefined,
  };
}

/** Which booking a change is for, the ETag (If-Match) it is meant for, if any, and the client_secret sent with it. */
interface ChangeTarget {
  id: string;
  ifMatch: IfMatch | undefined;
  clientSecret?: string | undefined;
}

/** A reschedule's schedule, as the checks answered: what its new interval is judged by under the lock. */
interface RescheduleRules {
  rules: SeatRules;
  day: BookableSchedule['day'];
}

/** The fields a publishable key may send in a PATCH: a reschedule, and nothing else (API.md "Keys"). */
const PUBLISHABLE_CHANGES = new Set(['start_time', 'end_time']);

/**
 * Applies a planned change under the booking's row lock: concurrent changes of one booking run one
 * after the other, and each is judged against the state the previous one left (one wins, the other
 * sees the new state, and a stale If-Match its 412). The write itself also holds the schedule's write lock
 * (see schedule-lock.ts). The new state and one event per step commit together.
 */
async function applyLocked(
  ctx: UseCaseContext,
  caller: Caller,
  { id, ifMatch, clientSecret }: ChangeTarget,
  plan: (current: Booking) => UpdatePlan,
  reschedule?: RescheduleRules,
): Promise<Booking> {
  const saved = await retryOnDeadlock(() =>
    withTransaction(ctx.pool, async (tx) => {
      const current = await lockBooking(tx, caller.organizationId, id);
      if (!current) throw notFound('Booking');
      requireClientSecret(caller, current, clientSecret);
      requireMatch(ifMatch, { id: current.id, version: bookingTagVersion(current) });
      const planned = plan(current);
      if (planned.refusal !== undefined) throw new AppError('INVALID_TRANSITION', planned.refusal);
      if (planned.steps.length === 0) return { booking: current, changed: false };
      // Row lock first, then the schedule's: creates take only the latter, so no two writers wait in a circle.
      await lockSchedule(tx, current.scheduleId);
      let result = planned.result;
      if (reschedule && planned.steps.some((step) => step.kind === 'rescheduled')) {
        // The new interval's seats and day, judged as a creation's summing path is (this booking not counted).
        const taken = await occupancy(tx, { ...result, day: reschedule.day, now: ctx.now(), exceptBookingId: current.id });
        requireRoom(current.seats, reschedule.rules, taken);
        result = { ...result, shared: reschedule.rules.seatsPerSlot > 1 };
        if (result.shared) await noteClaims(tx, result.scheduleId, { shared: true });
      }
      await saveBooking(tx, result);
      await recordSteps(tx, current, planned.steps, caller);
      return { booking: result, changed: true };
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
  {
    id: rawId,
    changes,
    ifMatch,
    clientSecret,
  }: { id: string; changes: UpdateBookingBody; ifMatch?: IfMatch | undefined; clientSecret?: string | undefined },
): Promise<Versioned<BookingRecord>> {
  if (isPublishable(caller) && Object.keys(changes).some((field) => !PUBLISHABLE_CHANGES.has(field))) {
    throw new AppError('FORBIDDEN', 'Publishable keys can only reschedule a booking (start_time and end_time)');
  }
  const id = recordId(rawId, 'Booking');
  const request = toUpdateRequest(changes);
  let reschedule: RescheduleRules | undefined;
  if (request.interval) {
    const current = await findBooking(ctx.pool, caller.organizationId, id);
    if (!current) throw notFound('Booking');
    requireClientSecret(caller, current, clientSecret);
    // Refuse what the state forbids (a stale If-Match first, as the locked write would) before asking other services anything.
    requireMatch(ifMatch, { id: current.id, version: bookingTagVersion(current) });
    const early = planUpdate(current, request, ctx.now());
    if (early.refusal !== undefined) throw new AppError('INVALID_TRANSITION', early.refusal);
    const schedule = await verifyBookable(
      ctx,
      { organizationId: caller.organizationId, scheduleId: current.scheduleId, ...request.interval },
      caller.requestId,
      { publicOnly: isPublishable(caller) },
    );
    reschedule = { rules: schedule, day: schedule.day };
  }
  const target = { id, ifMatch, clientSecret };
  const saved = await applyLocked(ctx, caller, target, (current) => planUpdate(current, request, ctx.now()), reschedule);
  return { record: bookingRecord(saved), version: bookingTagVersion(saved) };
}

/** DELETE /api/v1/bookings/{id}: a soft cancel from PENDING or CONFIRMED. */
export async function cancelBooking(
  ctx: UseCaseContext,
  caller: Caller,
  { id, ifMatch, clientSecret }: { id: string; ifMatch?: IfMatch | undefined; clientSecret?: string | undefined },
): Promise<BookingRecord> {
  const target = { id: recordId(id, 'Booking'), ifMatch, clientSecret };
  return bookingRecord(await applyLocked(ctx, caller, target, (current) => planCancel(current, ctx.now())));
}

/**
 * One event per step of a change, each with the version that step produced and (but a cancellation) the record's
 * fields as the step before left them (`previous_attributes`).
 */
export async function recordSteps(tx: Queryable, current: Booking, steps: UpdateStep[], caller: Caller): Promise<void> {
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
