import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import { callerAssertion, organizationHeaders, startedForTests } from '@app/service-testing';
import { createSchedule, startScheduling } from './support/harness.js';

// API.md "Keys": a publishable key reads a schedule only when it has public_booking, and only its public fields.
const running = startedForTests(startScheduling);

const publishable = (organizationId: string) => ({
  [CALLER_ASSERTION_HEADER]: callerAssertion({ organizationId, timezone: 'UTC', keyType: 'publishable' }),
});

describe('GET /api/v1/schedules/{id} with a publishable key', () => {
  it('when the schedule has public_booking, then it answers exactly id, name, timezone, slot_duration, seats_per_slot', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), {
      name: 'Yoga class',
      timezone: 'Europe/Lisbon',
      slot_duration: 60,
      seats_per_slot: 12,
      max_bookings_per_day: 4,
      public_booking: true,
    });
    const response = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers: publishable(organizationId) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: { id: schedule.id, name: 'Yoga class', timezone: 'Europe/Lisbon', slot_duration: 60, seats_per_slot: 12 },
    });
    // A secret key still reads the whole record.
    const full = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers: organizationHeaders(organizationId) });
    expect(full.json()).toEqual({ data: schedule });
  });

  it.each([
    ['private', { public_booking: false }, true],
    ["another organization's public", { public_booking: true }, false],
  ])('when the schedule is %s, then it is a 404 NOT_FOUND', async (_case, body, own) => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(own ? organizationId : randomUUID()), body);
    const response = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers: publishable(organizationId) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Schedule not found', code: 'NOT_FOUND' });
  });

  it('when a publishable key lists schedules, then the kit refuses it (not a public operation)', async () => {
    const response = await running.app.inject({ url: '/api/v1/schedules', headers: publishable(randomUUID()) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', error: 'Publishable keys cannot call this operation' });
  });
});
