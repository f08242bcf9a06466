import type { CreateBookingBody } from '@app/contracts';
import { AppError, isAppError } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import { requestHash } from '../domain/request-hash.js';
import { findLiveKey, storeKey, type IdempotencyKeyRef, type StoredResponse } from '../db/idempotency.repository.js';
import type { BookingContext, Caller } from './context.js';
import { createBooking, KeyTaken } from './create-booking.js';

export interface CreateOutcome {
  statusCode: number;
  body: unknown;
  /** True when the response is the stored first response of the Idempotency-Key. */
  replayed: boolean;
}

/** Outcomes worth replaying: what the request decided (404, 409), not passing trouble (503, 500) or refusals of the key. */
function isStorable(error: AppError): boolean {
  return error.status >= 400 && error.status < 500 && error.code !== 'IDEMPOTENCY_KEY_REUSED';
}

function replay(stored: StoredResponse, ref: IdempotencyKeyRef): CreateOutcome {
  if (stored.requestHash !== ref.requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body');
  }
  return { statusCode: stored.statusCode, body: stored.body, replayed: true };
}

/**
 * POST /api/v1/bookings with an optional Idempotency-Key (Stripe-style): the first response to a key
 * is stored (in the booking's own statement when it succeeds) and replayed for 24 hours to the same
 * body; another body gets 409. Concurrent requests with one key queue on the key's primary key, so
 * only one of them creates a booking and the others replay its response. A 503 or 500 is not stored:
 * the client retries with the same key.
 */
export async function createBookingIdempotently(
  body: CreateBookingBody,
  caller: Caller,
  ctx: BookingContext,
  key: string | undefined,
): Promise<CreateOutcome> {
  if (key === undefined) {
    const booking = await createBooking(body, caller, ctx);
    return { statusCode: 201, body: { data: toBookingRecord(booking) }, replayed: false };
  }
  const ref: IdempotencyKeyRef = { organizationId: caller.organizationId, key, requestHash: requestHash(body) };
  // The entry can vanish between a conflict and the read only if it expired meanwhile: then try afresh.
  for (let attempt = 0; ; attempt += 1) {
    const earlier = await findLiveKey(ctx.prisma, ref);
    if (earlier) return replay(earlier, ref);
    try {
      const booking = await createBooking(body, caller, ctx, ref);
      return { statusCode: 201, body: { data: toBookingRecord(booking) }, replayed: false };
    } catch (error) {
      if (error instanceof KeyTaken) {
        if (attempt < 2) continue;
        throw new AppError('CONFLICT', 'Another request with this Idempotency-Key is in progress; retry it');
      }
      if (!isAppError(error) || !isStorable(error)) throw error;
      const response = { statusCode: error.status, body: { error: error.message, code: error.code } };
      // Stored: this error is the key's first response. Not stored: a concurrent request won; replay it.
      if ((await storeKey(ctx.prisma, ref, response)) || attempt >= 2) throw error;
    }
  }
}
