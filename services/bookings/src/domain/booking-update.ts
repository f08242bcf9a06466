import type { BookingStatus } from '@app/contracts';
import { canonicalJson } from '@app/service-kit';
import type { Booking, BookingDetails } from './booking.js';
import { canReschedule, canTransition, transitionRefusal } from './booking-status.js';

export interface UpdateRequest {
  status?: BookingStatus;
  details: BookingDetails;
  interval?: { startTime: Date; endTime: Date };
}

/** One change of a PATCH, with the booking as it is after it; each becomes one domain event and one version. */
export type UpdateStep =
  | { kind: 'updated'; changed: string[]; after: Booking }
  | { kind: 'rescheduled'; previousStart: Date; previousEnd: Date; after: Booking }
  | { kind: 'status'; previousStatus: BookingStatus; after: Booking };

export type UpdatePlan = { refusal: string } | { refusal?: undefined; steps: UpdateStep[]; result: Booking };

const DETAIL_COLUMNS: Record<keyof BookingDetails, string> = {
  title: 'title',
  location: 'location',
  locationType: 'location_type',
  metadata: 'metadata',
};

function changedDetails(current: Booking, details: BookingDetails): (keyof BookingDetails)[] {
  return (Object.keys(DETAIL_COLUMNS) as (keyof BookingDetails)[]).filter(
    (key) => details[key] !== undefined && canonicalJson(details[key]) !== canonicalJson(current[key]),
  );
}

/** A null in a PATCH clears the field; an absent one keeps it. */
function withDetails(booking: Booking, details: BookingDetails): Partial<Booking> {
  const pick = <T>(given: T | undefined, kept: T): T => (given === undefined ? kept : given);
  return {
    title: pick(details.title, booking.title),
    location: pick(details.location, booking.location),
    locationType: pick(details.locationType, booking.locationType),
    metadata: pick(details.metadata, booking.metadata),
  };
}

/**
 * Plans a PATCH against the booking as it is now (read under a row lock): detail changes, then the
 * reschedule, then the status move, each a step of its own. Every rule is judged on the current status.
 */
export function planUpdate(current: Booking, request: UpdateRequest, now: Date): UpdatePlan {
  if (request.status !== undefined && !canTransition(current.status, request.status)) {
    return { refusal: transitionRefusal(current.status, request.status) };
  }
  if (request.interval && !canReschedule(current.status)) {
    return { refusal: `Cannot reschedule a ${current.status} booking` };
  }
  const steps: UpdateStep[] = [];
  let booking = current;
  const next = (changes: Partial<Booking>): Booking => ({ ...booking, ...changes, version: booking.version + 1, updatedAt: now });

  const changed = changedDetails(current, request.details);
  if (changed.length > 0) {
    booking = next(withDetails(booking, request.details));
    steps.push({ kind: 'updated', changed: changed.map((key) => DETAIL_COLUMNS[key]), after: booking });
  }
  const interval = request.interval;
  if (
    interval &&
    (interval.startTime.getTime() !== current.startTime.getTime() || interval.endTime.getTime() !== current.endTime.getTime())
  ) {
    booking = next({ startTime: interval.startTime, endTime: interval.endTime });
    steps.push({ kind: 'rescheduled', previousStart: current.startTime, previousEnd: current.endTime, after: booking });
  }
  if (request.status !== undefined) {
    booking = next({ status: request.status });
    steps.push({ kind: 'status', previousStatus: current.status, after: booking });
  }
  return { steps, result: booking };
}

/** DELETE: a soft cancel, allowed from PENDING and CONFIRMED only. */
export function planCancel(current: Booking, now: Date): UpdatePlan {
  return planUpdate(current, { status: 'CANCELLED', details: {} }, now);
}
