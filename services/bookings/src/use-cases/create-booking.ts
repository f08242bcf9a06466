import { randomUUID } from 'node:crypto';
import { bookingCreatedEvent, type CreateBookingBody } from '@app/contracts';
import { AppError } from '@app/service-kit';
import { bookingState, newBooking, type Booking } from '../domain/booking.js';
import { toBookingRecord } from '../domain/booking-record.js';
import { insertBookingStatement } from '../db/create-booking.statement.js';
import { isKeyTaken, isOverlapViolation, retryOnDeadlock } from '../db/errors.js';
import type { IdempotencyKeyRef } from '../db/idempotency.repository.js';
import { outboxEvent } from '../db/outbox-event.js';
import type { BookingContext, Caller } from './context.js';

export function slotTaken(): AppError {
  return new AppError('SLOT_TAKEN', 'This time slot is already booked');
}

/** The Idempotency-Key is held by another request's committed entry: its response is the answer. */
export class KeyTaken extends Error {}

/**
 * POST /api/v1/bookings: the upstream checks in API.md's order, then one statement writing the booking,
 * its event and the key's first response; the exclusion constraint is the final word on overlaps (so
 * concurrent requests for one slot give exactly one booking).
 */
export async function createBooking(
  body: CreateBookingBody,
  caller: Caller,
  ctx: BookingContext,
  key?: IdempotencyKeyRef,
): Promise<Booking> {
  const schedule = await ctx.upstream.verifyBookable(
    {
      organizationId: caller.organizationId,
      scheduleId: body.schedule_id,
      eventTypeId: body.event_type_id,
      startTime: body.start_time,
      endTime: body.end_time,
    },
    caller.requestId,
  );
  const booking = newBooking(
    body,
    { id: randomUUID(), organizationId: caller.organizationId, scheduleTimezone: schedule.timezone },
    ctx.now(),
  );
  const event = outboxEvent(bookingCreatedEvent, bookingState(booking), {
    organizationId: caller.organizationId,
    correlationId: caller.requestId,
  });
  const firstResponse = key && { ...key, statusCode: 201, body: { data: toBookingRecord(booking) } };
  try {
    await retryOnDeadlock(() => insertBookingStatement(ctx.pool, booking, event, firstResponse));
  } catch (error) {
    if (isOverlapViolation(error)) throw slotTaken();
    if (isKeyTaken(error)) throw new KeyTaken();
    throw error;
  }
  ctx.wakeRelay();
  return booking;
}
