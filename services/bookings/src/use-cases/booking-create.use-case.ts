import { randomUUID } from 'node:crypto';
import { bookingCreatedEvent, holdEndedEvent, type CreateBookingBody, type CreatedBooking } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  isExclusionViolation,
  isPublishable,
  issueClientSecret,
  notFound,
  outboxRow,
  recordEvent,
  recordId,
  withTransaction,
  type Caller,
  type OutboxRow,
  type Queryable,
  type Reservation,
} from '@app/service-kit';
import { bookingState, newBooking, type Booking } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { oneSeatRules, requireRoom, requireSeatsFit, SLOT_TAKEN_MESSAGE, type SeatRules } from '../domain/capacity.js';
import { holdRefusal, holdState } from '../domain/hold.js';
import { insertBookingStatement, type FirstResponse } from '../db/booking-create.repository.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import { endHold, findHold } from '../db/hold.repository.js';
import { lockSchedule } from '../db/schedule-lock.js';
import { needsSeatSum, noteClaims, occupancy } from '../db/seat-guard.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable, type BookableSchedule } from './upstream-checks.js';

/** SLOT_TAKEN when `error` is the exclusion constraint's refusal of an overlapping booking, else `error` itself. */
export function slotTakenIfOverlap(error: unknown): unknown {
  return isExclusionViolation(error, 'bookings_no_overlap') ? new AppError('SLOT_TAKEN', SLOT_TAKEN_MESSAGE) : error;
}

/** What a booking must share with the hold it takes the place of. */
type HeldSlot = Parameters<typeof holdRefusal>[1];

function holdInvalid(message: string): AppError {
  return new AppError('HOLD_INVALID', message);
}

/** The hold a booking names, judged against it (HOLD_INVALID with API.md's reason), read as it is now. */
async function requireUsableHold(ctx: UseCaseContext, caller: Caller, holdId: string, booking: HeldSlot, locked?: Queryable) {
  const hold = await findHold(locked ?? ctx.pool, caller.organizationId, recordId(holdId, 'Hold'), locked !== undefined);
  if (!hold) throw notFound('Hold');
  const refusal = holdRefusal(hold, booking, ctx.now());
  if (refusal) throw holdInvalid(refusal);
  return hold;
}

/** What one write of a new booking needs: the booking, its created event, and the Idempotency-Key's first response. */
interface NewBookingWrite {
  booking: Booking;
  event: OutboxRow;
  first: FirstResponse | undefined;
}

/**
 * The summing path (seat-guard.ts): under the schedule lock, taken by a statement of its own so that every later
 * statement's snapshot sees every claim committed before it, the hold (if any) is judged under its row lock, then the
 * seats at every instant and the day's count, and the booking is written in the same transaction — with the hold it
 * takes the place of marked used (at most once: a second booking with it finds it used).
 */
async function insertSummed(
  ctx: UseCaseContext,
  caller: Caller,
  write: NewBookingWrite,
  rules: SeatRules,
  day: BookableSchedule['day'],
  holdId?: string,
) {
  const { booking } = write;
  return withTransaction(ctx.pool, async (tx) => {
    await lockSchedule(tx, booking.scheduleId);
    const hold = holdId === undefined ? undefined : await requireUsableHold(ctx, caller, holdId, booking, tx);
    const taken = await occupancy(tx, { ...booking, day, now: ctx.now(), exceptHoldId: hold?.id });
    requireRoom(booking.seats, rules, taken);
    const inserted = await insertBookingStatement(tx, booking, write.event, write.first);
    if (!inserted) return false;
    if (booking.shared) await noteClaims(tx, booking.scheduleId, { shared: true });
    if (hold) {
      await endHold(tx, hold.id, { bookingId: booking.id });
      await recordEvent(tx, holdEndedEvent, holdState({ ...hold, bookingId: booking.id }, ctx.now()), eventContextOf(caller));
    }
    return true;
  });
}

/**
 * POST /api/v1/bookings: the upstream checks in API.md's order (a hold first: it is checked before the slot), then
 * the write. One seat per slot, no day limit and no hold: one statement whose exclusion constraint is the final word
 * on overlaps, exactly as before seats (it hands over to the summing path when the schedule has an active hold or a
 * shared booking). Anything else: the summing path. Either way concurrent requests for the last seat give exactly one
 * booking, and the Idempotency-Key's reservation is the final word on keys. The 201 alone shows the `client_secret`.
 */
export async function createBooking(
  ctx: UseCaseContext,
  caller: Caller,
  { body, reservation }: { body: CreateBookingBody; reservation?: Reservation | undefined },
): Promise<CreatedBooking> {
  const seats = body.seats ?? 1;
  const slot = { scheduleId: body.schedule_id.toLowerCase(), startTime: body.start_time, endTime: body.end_time, seats };
  const holdId = body.hold_id ?? undefined;
  if (holdId !== undefined) await requireUsableHold(ctx, caller, holdId, slot);
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
    { publicOnly: isPublishable(caller) },
  );
  requireSeatsFit(seats, schedule);
  const secret = issueClientSecret();
  const owner = {
    id: randomUUID(),
    organizationId: caller.organizationId,
    scheduleTimezone: schedule.timezone,
    seatsPerSlot: schedule.seatsPerSlot,
    clientSecretHash: secret.hash,
  };
  const booking = newBooking(body, owner, ctx.now());
  const record = bookingRecord(booking);
  const created: CreatedBooking = { ...record, client_secret: secret.secret };
  const event = outboxRow(bookingCreatedEvent, { ...bookingState(booking), record }, eventContextOf(caller));
  // The route answers 201 with the same body: the key replays exactly what the first request got.
  const write = { booking, event, first: reservation && { reservation, statusCode: 201, body: { data: created } } };
  let inserted: boolean;
  try {
    inserted = await retryOnDeadlock(async () => {
      if (holdId === undefined && oneSeatRules(schedule)) {
        try {
          return await insertBookingStatement(ctx.pool, booking, event, write.first, { now: ctx.now() });
        } catch (error) {
          if (!needsSeatSum(error)) throw error;
        }
      }
      return insertSummed(ctx, caller, write, schedule, schedule.day, holdId);
    });
  } catch (error) {
    throw slotTakenIfOverlap(error);
  }
  // Only without the reservation: it lapsed (this request outlived its lease) and another request took the key.
  if (!inserted) throw new AppError('CONFLICT', 'Another request with this Idempotency-Key is in progress; retry it');
  ctx.relay.wake();
  return created;
}
