import { HOLD_STATUSES, type HoldRecord, type HoldState } from '@app/contracts';

/** A hold as the service stores it; its status is not stored but judged at a given instant (holdStatus). */
export interface Hold {
  id: string;
  organizationId: string;
  scheduleId: string;
  startTime: Date;
  endTime: Date;
  seats: number;
  expiresAt: Date;
  releasedAt: Date | null;
  bookingId: string | null;
  createdAt: Date;
}

type HoldStatus = HoldRecord['status'];

/** used and released are for good; otherwise active until expires_at and expired from that instant on, with no write. */
export function holdStatus(hold: Hold, now: Date): HoldStatus {
  if (hold.bookingId !== null) return 'used';
  if (hold.releasedAt !== null) return 'released';
  return hold.expiresAt.getTime() > now.getTime() ? 'active' : 'expired';
}

/**
 * What a hold's ETag is made of: its status, the one thing of its record that changes (released and used for good,
 * expired at expires_at with no write), so the tag changes at the instant it expires too.
 */
export function holdVersion(hold: Hold, now: Date): number {
  return HOLD_STATUSES.indexOf(holdStatus(hold, now)) + 1;
}

export function holdRecord(hold: Hold, now: Date): HoldRecord {
  return {
    id: hold.id,
    schedule_id: hold.scheduleId,
    start_time: hold.startTime.toISOString(),
    end_time: hold.endTime.toISOString(),
    seats: hold.seats,
    status: holdStatus(hold, now),
    expires_at: hold.expiresAt.toISOString(),
    booking_id: hold.bookingId,
    created_at: hold.createdAt.toISOString(),
  };
}

/** What bookings.hold.created / bookings.hold.ended carry (the slot projection's input). */
export function holdState(hold: Hold, now: Date): HoldState {
  const { created_at: _created, id, ...rest } = holdRecord(hold, now);
  return { hold_id: id, ...rest };
}

/** The HOLD_INVALID message for a hold a booking cannot take, or null when it can (API.md's four cases). */
export function holdRefusal(
  hold: Hold,
  booking: { scheduleId: string; startTime: Date; endTime: Date; seats: number },
  now: Date,
): string | null {
  const status = holdStatus(hold, now);
  if (status !== 'active') return `Hold is ${status}`;
  const matches =
    hold.scheduleId === booking.scheduleId &&
    hold.startTime.getTime() === booking.startTime.getTime() &&
    hold.endTime.getTime() === booking.endTime.getTime() &&
    hold.seats === booking.seats;
  return matches ? null : 'Hold does not match the booking';
}
