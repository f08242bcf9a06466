import { randomUUID } from 'node:crypto';
import { holdCreatedEvent, holdEndedEvent, type CreateHoldBody, type HoldRecord } from '@app/contracts';
import {
  eventContextOf,
  isPublishable,
  notFound,
  recordEvent,
  recordId,
  requireMatch,
  scheduleNotFound,
  withTransaction,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { requireRoom, requireSeatsFit } from '../domain/capacity.js';
import { holdRecord, holdState, holdStatus, holdVersion, type Hold } from '../domain/hold.js';
import { retryOnDeadlock } from '../db/deadlock-retry.js';
import { endHold, findHold, insertHold } from '../db/hold.repository.js';
import { lockSchedule } from '../db/schedule-lock.js';
import { noteClaims, occupancy } from '../db/seat-guard.js';
import type { UseCaseContext } from './context.js';
import { verifyBookable } from './upstream-checks.js';

/**
 * POST /api/v1/holds: a booking's checks, then the summing path of bookings (seat-guard.ts) with the hold as the
 * claim: under the schedule lock, its seats must fit at every instant and its day must have room. The schedule's
 * claims row learns until when the hold may be active, so one-seat bookings stop trusting the exclusion constraint
 * alone until then. Its expiry needs no write: every reader judges `expires_at` against now.
 */
export async function createHold(ctx: UseCaseContext, caller: Caller, body: CreateHoldBody): Promise<HoldRecord> {
  const schedule = await verifyBookable(
    ctx,
    { organizationId: caller.organizationId, scheduleId: body.schedule_id, startTime: body.start_time, endTime: body.end_time },
    caller.requestId,
    { publicOnly: isPublishable(caller) },
  );
  requireSeatsFit(body.seats, schedule);
  const now = ctx.now();
  const hold: Hold = {
    id: randomUUID(),
    organizationId: caller.organizationId,
    scheduleId: body.schedule_id.toLowerCase(),
    startTime: body.start_time,
    endTime: body.end_time,
    seats: body.seats,
    expiresAt: new Date(now.getTime() + body.ttl_seconds * 1000),
    releasedAt: null,
    bookingId: null,
    createdAt: now,
  };
  await retryOnDeadlock(() =>
    withTransaction(ctx.pool, async (tx) => {
      await lockSchedule(tx, hold.scheduleId);
      requireRoom(hold.seats, schedule, await occupancy(tx, { ...hold, day: schedule.day, now: ctx.now() }));
      await insertHold(tx, hold);
      await noteClaims(tx, hold.scheduleId, { holdsUntil: hold.expiresAt });
      await recordEvent(tx, holdCreatedEvent, holdState(hold, now), eventContextOf(caller));
    }),
  );
  ctx.relay.wake();
  return holdRecord(hold, now);
}

/**
 * The organization's hold, or 404. A publishable key sees holds of public schedules only: scheduling is asked about
 * the schedule (an inactive or non-public one is SCHEDULE_NOT_FOUND to it, as on creation).
 */
async function visibleHold(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Hold> {
  const hold = await findHold(ctx.pool, caller.organizationId, recordId(rawId, 'Hold'));
  if (!hold) throw notFound('Hold');
  if (isPublishable(caller)) {
    const answer = await ctx.scheduling.checkAvailability({ ...hold, organizationId: caller.organizationId }, caller.requestId);
    if (!answer.public_booking) throw scheduleNotFound();
  }
  return hold;
}

/** GET /api/v1/holds/{id}: its status as of now (expired the instant expires_at passes). */
export async function getHold(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<HoldRecord>> {
  const hold = await visibleHold(ctx, caller, rawId);
  const now = ctx.now();
  return { record: holdRecord(hold, now), version: holdVersion(hold, now) };
}

/**
 * DELETE /api/v1/holds/{id}: an active hold becomes released (its seats are free at once, and bookings.hold.ended
 * tells the slot projection); a hold already released, used or expired is answered as it is.
 */
export async function releaseHold(ctx: UseCaseContext, caller: Caller, rawId: string, ifMatch?: IfMatch): Promise<HoldRecord> {
  const visible = await visibleHold(ctx, caller, rawId);
  const released = await withTransaction(ctx.pool, async (tx) => {
    const hold = await findHold(tx, caller.organizationId, visible.id, true);
    if (!hold) throw notFound('Hold');
    const now = ctx.now();
    requireMatch(ifMatch, { id: hold.id, version: holdVersion(hold, now) });
    if (holdStatus(hold, now) !== 'active') return { hold, now, changed: false };
    const ended = { ...hold, releasedAt: now };
    await endHold(tx, hold.id, { releasedAt: now });
    await recordEvent(tx, holdEndedEvent, holdState(ended, now), eventContextOf(caller));
    return { hold: ended, now, changed: true };
  });
  if (released.changed) ctx.relay.wake();
  return holdRecord(released.hold, released.now);
}
