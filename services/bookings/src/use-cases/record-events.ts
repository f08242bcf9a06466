import { bookingCancelledEvent, bookingRescheduledEvent, bookingStatusChangedEvent, bookingUpdatedEvent } from '@app/contracts';
import { recordEvent } from '@app/service-kit';
import { bookingState } from '../domain/booking.js';
import type { UpdateStep } from '../domain/booking-update.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Caller } from './context.js';

function eventContext(caller: Caller) {
  return { organizationId: caller.organizationId, correlationId: caller.requestId };
}

/** One event per step of a change, each with the version that step produced. */
export async function recordSteps(tx: Prisma.TransactionClient, steps: UpdateStep[], caller: Caller): Promise<void> {
  for (const step of steps) {
    const state = bookingState(step.after);
    const context = eventContext(caller);
    if (step.kind === 'updated') {
      await recordEvent(tx, bookingUpdatedEvent, { ...state, changed: step.changed }, context);
    } else if (step.kind === 'rescheduled') {
      const previous = { previous_start_time: step.previousStart.toISOString(), previous_end_time: step.previousEnd.toISOString() };
      await recordEvent(tx, bookingRescheduledEvent, { ...state, ...previous }, context);
    } else {
      const event = step.after.status === 'CANCELLED' ? bookingCancelledEvent : bookingStatusChangedEvent;
      await recordEvent(tx, event, { ...state, previous_status: step.previousStatus }, context);
    }
  }
}
