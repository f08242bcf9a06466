import type { UpdateBookingBody } from '@app/contracts';
import { AppError, notFound, SqlParams } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import { planCancel, planUpdate, type UpdatePlan, type UpdateRequest } from '../domain/booking-update.js';
import { findBooking, lockBooking, saveBooking } from '../db/booking.repository.js';
import { isOverlapViolation, retryOnDeadlock } from '../db/errors.js';
import { lockScheduleWrites } from '../db/schedule-lock.js';
import type { BookingContext, Caller } from './context.js';
import { slotTaken } from './create-booking.js';
import { recordSteps } from './record-events.js';

function toUpdateRequest(body: UpdateBookingBody): UpdateRequest {
  return {
    status: body.status,
    details: { title: body.title, location: body.location, locationType: body.location_type, metadata: body.metadata },
    interval: body.start_time && body.end_time ? { startTime: body.start_time, endTime: body.end_time } : undefined,
  };
}

/**
 * Applies a planned change under the booking's row lock: concurrent changes of one booking run one
 * after the other, and each is judged against the state the previous one left (one wins, the other
 * sees the new state). The write itself also holds the schedule's write lock (see schedule-lock.ts).
 * The new state and one event per step commit together.
 */
async function applyLocked(id: string, caller: Caller, ctx: BookingContext, plan: (current: Booking) => UpdatePlan): Promise<Booking> {
  const saved = await retryOnDeadlock(() =>
    ctx.prisma.$transaction(async (tx) => {
      const current = await lockBooking(tx, caller.organizationId, id);
      if (!current) throw notFound('Booking');
      const planned = plan(current);
      if (planned.refusal !== undefined) throw new AppError('INVALID_TRANSITION', planned.refusal);
      if (planned.steps.length === 0) return { booking: current, changed: false };
      // Row lock first, then the schedule's: creates take only the latter, so no two writers wait in a circle.
      const lock = new SqlParams();
      await tx.$executeRawUnsafe(lockScheduleWrites(current.scheduleId, lock), ...lock.values);
      await saveBooking(tx, planned.result);
      await recordSteps(tx, planned.steps, caller);
      return { booking: planned.result, changed: true };
    }),
  ).catch((error: unknown) => {
    throw isOverlapViolation(error) ? slotTaken() : error;
  });
  if (saved.changed) ctx.wakeRelay();
  return saved.booking;
}

/**
 * PATCH /api/v1/bookings/{id}. A reschedule first passes the creation checks (schedule still active,
 * interval inside availability) outside the transaction; the overlap check is the exclusion constraint.
 */
export async function updateBooking(id: string, body: UpdateBookingBody, caller: Caller, ctx: BookingContext): Promise<Booking> {
  const request = toUpdateRequest(body);
  if (request.interval) {
    const current = await findBooking(ctx.prisma, caller.organizationId, id);
    if (!current) throw notFound('Booking');
    // Refuse what the state forbids before asking other services anything.
    const early = planUpdate(current, request, ctx.now());
    if (early.refusal !== undefined) throw new AppError('INVALID_TRANSITION', early.refusal);
    await ctx.upstream.verifyBookable(
      { organizationId: caller.organizationId, scheduleId: current.scheduleId, ...request.interval },
      caller.requestId,
    );
  }
  return applyLocked(id, caller, ctx, (current) => planUpdate(current, request, ctx.now()));
}

/** DELETE /api/v1/bookings/{id}: a soft cancel from PENDING or CONFIRMED. */
export async function cancelBooking(id: string, caller: Caller, ctx: BookingContext): Promise<Booking> {
  return applyLocked(id, caller, ctx, (current) => planCancel(current, ctx.now()));
}
