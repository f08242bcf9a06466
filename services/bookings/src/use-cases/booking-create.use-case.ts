import { randomUUID } from 'node:crypto';
import { bookingCreatedEvent, type BookingRecord, type CreateBookingBody } from '@app/contracts';
import { AppError, eventContextOf, isExclusionViolation, outboxRow, type Caller, type Reservation } from '@app/service-kit';
import { bookingState, newBooking } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { insertBookingStatement } from '../db/booking-create.repository.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable } from './upstream-checks.js';

/** SLOT_TAKEN when `error` is the exclusion constraint's refusal of an overlapping booking, else `error` itself. */
export function slotTakenIfOverlap(error: unknown): unknown {
  return isExclusionViolation(error, 'bookings_no_overlap') ? new AppError('SLOT_TAKEN', 'This time slot is already booked') : error;
}

/**
 * POST /api/v1/bookings: the upstream checks in API.md's order, then one statement writing the booking,
 * its event and (with an Idempotency-Key, whose reservation the kit took before this ran) the key's first
 * response; the exclusion constraint is the final word on overlaps (so concurrent requests for one slot
 * give exactly one booking), the reservation the final word on keys (one booking per key).
 */
export async function createBooking(
  ctx: UseCaseContext,
  caller: Caller,
  { body, reservation }: { body: CreateBookingBody; reservation?: Reservation | undefined },
): Promise<BookingRecord> {
  const schedule = await verifyBookable(
    ctx,
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
  const record = bookingRecord(booking);
  const event = outboxRow(bookingCreatedEvent, { ...bookingState(booking), record }, eventContextOf(caller));
  // The route answers 201 with the same body: the key replays exactly what the first request got.
  const first = reservation && { reservation, statusCode: 201, body: { data: record } };
  let inserted: boolean;
  try {
    inserted = await retryOnDeadlock(() => insertBookingStatement(ctx.pool, booking, event, first));
  } catch (error) {
    throw slotTakenIfOverlap(error);
  }
  // Only without the reservation: it lapsed (this request outlived its lease) and another request took the key.
  if (!inserted) throw new AppError('CONFLICT', 'Another request with this Idempotency-Key is in progress; retry it');
  ctx.relay.wake();
  return record;
}
