import type { z } from 'zod';
import { availabilityCheckRequest, CALLER_ASSERTION_HEADER } from '@app/contracts';
import { callerAssertion } from '@app/service-testing';
import type { BookingsSuite } from './harness.js';

type AvailabilityAnswer = z.input<typeof availabilityCheckRequest.reply>;

/**
 * Scheduling (faked) answers every interval as available, with these schedule rules: seats per slot, the day limit,
 * public_booking, and the local day of the asked start (UTC days here unless `day` says otherwise).
 */
export async function answerWithRules(
  suite: Pick<BookingsSuite, 'neighbours'>,
  rules: Partial<Pick<AvailabilityAnswer, 'seats_per_slot' | 'max_bookings_per_day' | 'public_booking' | 'reason' | 'available'>> = {},
): Promise<void> {
  await suite.neighbours.answer(availabilityCheckRequest, ({ start_time }) => {
    const start = new Date(start_time);
    const dayStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
    return {
      available: true,
      reason: null,
      timezone: 'UTC',
      day_start: dayStart.toISOString(),
      day_end: new Date(dayStart.getTime() + 86_400_000).toISOString(),
      ...rules,
    };
  });
}

/** The headers of a call with the organization's publishable key, as the gateway asserts it. */
export function publishableHeaders(organizationId: string): Record<string, string> {
  return { [CALLER_ASSERTION_HEADER]: callerAssertion({ organizationId, timezone: 'UTC', keyType: 'publishable' }) };
}
