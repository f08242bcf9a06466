import { describe, expect, it } from 'vitest';
import type { Booking } from '../../src/domain/booking.js';
import { planCancel, planUpdate } from '../../src/domain/booking-update.js';

const NOW = new Date('2030-05-01T12:00:00.000Z');

function booking(overrides: Partial<Booking> = {}): Booking {
  return {
    id: '6f1c1f38-7a4e-4c55-9d39-0c1c7f6f4a10',
    organizationId: '0b8f9a7e-2a7f-4d43-8d0e-7ad4c2f1b001',
    scheduleId: '1f3e4d5c-6b7a-4c8d-9e0f-112233445566',
    eventTypeId: null,
    startTime: new Date('2030-05-02T09:00:00.000Z'),
    endTime: new Date('2030-05-02T09:30:00.000Z'),
    status: 'PENDING',
    title: 'Intro',
    timezone: 'UTC',
    location: null,
    locationType: null,
    metadata: { a: 1 },
    attendee: { name: 'Ada', email: 'ada@example.com', phone: null, timezone: null, notes: null },
    seats: 1,
    shared: false,
    seriesId: null,
    clientSecretHash: null,
    version: 3,
    createdAt: new Date('2030-04-01T00:00:00.000Z'),
    updatedAt: new Date('2030-04-01T00:00:00.000Z'),
    calendarEvent: null,
    calendarEventTag: [],
    ...overrides,
  };
}

describe('planUpdate', () => {
  it('when the status move is allowed, then one status step raises the version by one', () => {
    const plan = planUpdate(booking(), { status: 'CONFIRMED', details: {} }, NOW);
    if (plan.refusal !== undefined) throw new Error(plan.refusal);
    expect(plan.steps.map((s) => s.kind)).toEqual(['status']);
    expect(plan.result).toMatchObject({ status: 'CONFIRMED', version: 4, updatedAt: NOW });
  });

  it('when the status move is not in the table, then it is refused with the spec message', () => {
    const plan = planUpdate(booking({ status: 'CANCELLED' }), { status: 'CONFIRMED', details: {} }, NOW);
    expect(plan.refusal).toBe('Cannot transition from CANCELLED to CONFIRMED');
  });

  it('when details, time and status change together, then each is a step with its own version', () => {
    const interval = { startTime: new Date('2030-05-03T09:00:00.000Z'), endTime: new Date('2030-05-03T10:00:00.000Z') };
    const plan = planUpdate(booking(), { status: 'CONFIRMED', details: { title: 'New', metadata: null }, interval }, NOW);
    if (plan.refusal !== undefined) throw new Error(plan.refusal);
    expect(plan.steps.map((s) => [s.kind, s.after.version])).toEqual([
      ['updated', 4],
      ['rescheduled', 5],
      ['status', 6],
    ]);
    expect(plan.steps[0]).toMatchObject({ changed: ['title', 'metadata'] });
    expect(plan.result).toMatchObject({ title: 'New', metadata: null, status: 'CONFIRMED', ...interval });
  });

  it('when the given details equal the current ones, then nothing changes', () => {
    const plan = planUpdate(booking(), { details: { title: 'Intro', metadata: { a: 1 } } }, NOW);
    expect(plan).toMatchObject({ steps: [] });
  });

  it('when a finished booking is rescheduled, then it is refused', () => {
    const interval = { startTime: new Date('2030-05-03T09:00:00.000Z'), endTime: new Date('2030-05-03T10:00:00.000Z') };
    const plan = planUpdate(booking({ status: 'COMPLETED' }), { details: {}, interval }, NOW);
    expect(plan.refusal).toBe('Cannot reschedule a COMPLETED booking');
  });
});

describe('planCancel', () => {
  it.each(['PENDING', 'CONFIRMED'] as const)('when the booking is %s, then it becomes CANCELLED', (status) => {
    const plan = planCancel(booking({ status }), NOW);
    expect(plan).toMatchObject({ result: { status: 'CANCELLED', version: 4 } });
  });

  it.each(['CANCELLED', 'COMPLETED', 'NO_SHOW'] as const)('when the booking is %s, then the cancel is refused', (status) => {
    expect(planCancel(booking({ status }), NOW).refusal).toBe(`Cannot transition from ${status} to CANCELLED`);
  });
});
