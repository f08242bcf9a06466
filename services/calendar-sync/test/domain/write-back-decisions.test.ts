import { describe, expect, it } from 'vitest';
import { bookingWriteOf, planBookingChange, type BookingWrite, type StoredWrite } from '../../src/domain/calendar-write.js';
import { decideAfterWrite } from '../../src/domain/write-decision.js';
import { bookingState } from '../support/bookings.js';

const SCHEDULE = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';
const now = new Date('2026-03-10T12:00:00Z');

function stored(write: BookingWrite, overrides: Partial<StoredWrite> = {}): StoredWrite {
  return {
    connectionId: 'c',
    bookingId: write.bookingId,
    organizationId: ORG,
    scheduleId: SCHEDULE,
    calendarId: 'primary',
    bookingVersion: write.bookingVersion,
    desired: write.desired,
    startTime: write.start,
    endTime: write.end,
    summary: write.summary,
    attendeeEmail: write.attendeeEmail,
    eventId: 'evt',
    status: 'synced',
    lastError: null,
    retryNotBefore: null,
    version: 2,
    ...overrides,
  };
}

describe('bookingWriteOf', () => {
  it.each([
    ['PENDING', 'present'],
    ['CONFIRMED', 'present'],
    ['CANCELLED', 'absent'],
    ['COMPLETED', 'absent'],
    ['NO_SHOW', 'absent'],
  ] as const)('when the booking is %s, then its event is %s', (status, desired) => {
    const state = bookingState(SCHEDULE, { status });
    expect(bookingWriteOf(ORG, { ...state, status }).desired).toBe(desired);
  });

  it('when the booking has a title, then it is the summary; else `Booking: <attendee_name>`', () => {
    expect(bookingWriteOf(ORG, bookingState(SCHEDULE, { title: 'Call' })).summary).toBe('Call');
    expect(bookingWriteOf(ORG, bookingState(SCHEDULE, { title: null, attendee_name: 'Ada' })).summary).toBe('Booking: Ada');
  });
});

describe('planBookingChange', () => {
  const first = bookingWriteOf(ORG, bookingState(SCHEDULE));

  it('when there is no row, then a present booking is due and an absent one only keeps its version', () => {
    expect(planBookingChange(null, first)).toEqual({ kind: 'insert', due: true });
    expect(planBookingChange(null, { ...first, desired: 'absent' })).toEqual({ kind: 'insert', due: false });
  });

  it('when the event is older or the same version, then it is stale', () => {
    expect(planBookingChange(stored(first, { bookingVersion: 3 }), { ...first, bookingVersion: 3 })).toEqual({ kind: 'stale' });
    expect(planBookingChange(stored(first, { bookingVersion: 3 }), { ...first, bookingVersion: 2 })).toEqual({ kind: 'stale' });
  });

  it('when nothing the event shows changed, then only the version moves', () => {
    expect(planBookingChange(stored(first), { ...first, bookingVersion: 2 })).toEqual({ kind: 'version_only' });
  });

  it('when the time or the status changed, then the row is pending again, published unless it already was pending', () => {
    const moved = { ...first, bookingVersion: 2, start: new Date('2030-01-01T10:00:00Z') };
    expect(planBookingChange(stored(first), moved)).toEqual({ kind: 'pending', publish: true });
    expect(planBookingChange(stored(first, { status: 'pending' }), moved)).toEqual({ kind: 'pending', publish: false });
    expect(planBookingChange(stored(first, { status: 'pending' }), { ...moved, desired: 'absent' })).toEqual({
      kind: 'pending',
      publish: false,
    });
  });
});

describe('decideAfterWrite', () => {
  const policy = { baseMs: 30_000, capMs: 3_600_000, random: () => 1 };

  it('when the write is done, then synced with nothing left to do; pending at once if the booking changed meanwhile', () => {
    expect(decideAfterWrite({ kind: 'done', eventId: 'e' }, { attempts: 2, changedMeanwhile: false }, now, policy)).toEqual({
      eventId: 'e',
      status: 'synced',
      lastError: null,
      attempts: 0,
      nextAttemptAt: null,
      retryNotBefore: null,
    });
    expect(decideAfterWrite({ kind: 'done', eventId: 'e' }, { attempts: 0, changedMeanwhile: true }, now, policy)).toMatchObject({
      status: 'pending',
      nextAttemptAt: now,
    });
  });

  it.each([
    [0, 30_000],
    [1, 60_000],
    [2, 120_000],
    [20, 3_600_000],
  ])('when write number %i failed, then the next try waits up to %i ms', (attempts, ms) => {
    const decision = decideAfterWrite(
      { kind: 'failed', message: 'boom', eventId: null },
      { attempts, changedMeanwhile: false },
      now,
      policy,
    );
    expect(decision).toMatchObject({ status: 'failed', lastError: 'boom', attempts: attempts + 1 });
    expect(decision.nextAttemptAt?.getTime()).toBe(now.getTime() + ms);
  });

  it('when the provider asked to wait, then the next try and any booking change wait that long', () => {
    const decision = decideAfterWrite(
      { kind: 'retry_later', delayMs: 45_000, message: '429', eventId: 'e' },
      { attempts: 0, changedMeanwhile: false },
      now,
      policy,
    );
    expect(decision).toMatchObject({ status: 'failed', eventId: 'e', attempts: 1 });
    expect(decision.nextAttemptAt).toEqual(new Date(now.getTime() + 45_000));
    expect(decision.retryNotBefore).toEqual(decision.nextAttemptAt);
  });

  it('when the connection needs re-authorization, then the write stays pending and due, its attempts unchanged', () => {
    const decision = decideAfterWrite(
      { kind: 'reauth', message: 'invalid_grant', eventId: null },
      { attempts: 1, changedMeanwhile: false },
      now,
      policy,
    );
    expect(decision).toMatchObject({ status: 'pending', lastError: 'invalid_grant', attempts: 1, nextAttemptAt: now });
  });
});
