import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingCancelledEvent, bookingCreatedEvent, bookingRescheduledEvent, bookingStatusChangedEvent } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { DAY, POLL, allMorning, createSchedule, morning, publishEvent, slotStarts, startScheduling, without } from './support/harness.js';

const running = startedForTests(startScheduling);

function booking(scheduleId: string, overrides: Partial<{ status: string; version: number; start: string; end: string }> = {}) {
  const { status = 'PENDING', version = 1, start = '10:00', end = '10:30' } = overrides;
  return {
    booking_id: randomUUID(),
    schedule_id: scheduleId,
    event_type_id: null,
    status: status as 'PENDING',
    start_time: `${DAY}T${start}:00.000Z`,
    end_time: `${DAY}T${end}:00.000Z`,
    version,
  };
}

describe('bookings.booking.* consumer', () => {
  it('when a booking is created, then its slot disappears; when it is cancelled, then it comes back', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const created = booking(schedule.id);
    await publishEvent(running, bookingCreatedEvent, created);
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('10:00'));

    await publishEvent(running, bookingCancelledEvent, { ...created, status: 'CANCELLED', version: 2, previous_status: 'PENDING' });
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(allMorning);
  });

  it('when a late duplicate of the creation arrives after the cancellation, then the slot stays free', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const created = booking(schedule.id);
    await publishEvent(running, bookingCreatedEvent, created);
    await publishEvent(running, bookingCancelledEvent, { ...created, status: 'CANCELLED', version: 2, previous_status: 'PENDING' });
    await publishEvent(running, bookingCreatedEvent, created); // a re-publish with a new event id
    const marker = booking(schedule.id, { start: '11:30', end: '12:00' });
    await publishEvent(running, bookingCreatedEvent, marker); // processed after the duplicate (one consumer, in order)
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30'));
  });

  it('when the status moves to CONFIRMED, then it still blocks; COMPLETED or NO_SHOW free it', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const first = booking(schedule.id, { start: '09:00', end: '09:30' });
    const second = booking(schedule.id, { start: '11:00', end: '11:30' });
    await publishEvent(running, bookingCreatedEvent, first);
    await publishEvent(running, bookingCreatedEvent, second);
    await publishEvent(running, bookingStatusChangedEvent, { ...first, status: 'CONFIRMED', version: 2, previous_status: 'PENDING' });
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('09:00', '11:00'));

    await publishEvent(running, bookingStatusChangedEvent, { ...first, status: 'COMPLETED', version: 3, previous_status: 'CONFIRMED' });
    await publishEvent(running, bookingStatusChangedEvent, { ...second, status: 'NO_SHOW', version: 2, previous_status: 'CONFIRMED' });
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(allMorning);
  });

  it('when a booking is rescheduled, then the block moves with it', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const created = booking(schedule.id, { start: '09:00', end: '09:30' });
    await publishEvent(running, bookingCreatedEvent, created);
    await publishEvent(running, bookingRescheduledEvent, {
      ...booking(schedule.id, { start: '10:30', end: '11:00', version: 2 }),
      booking_id: created.booking_id,
      previous_start_time: created.start_time,
      previous_end_time: created.end_time,
    });
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('10:30'));
  });

  it('when the schedule has buffers, then they are kept free around bookings', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), { ...morning, buffer_before: 15, buffer_after: 30 });
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, { start: '10:00', end: '10:30' }));
    // Busy 09:45–11:00 after buffers: 09:30 (ends 10:00) and 10:30 (starts 10:30) overlap it.
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('09:30', '10:00', '10:30'));
  });

  it('when an event is malformed, then it is set aside (dead-lettered) and later events are still applied', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    await publishEvent(running, bookingCreatedEvent, { ...booking(schedule.id), version: 0 });
    await running.neighbour.publish(bookingCreatedEvent.subject, 'not an envelope', randomUUID());
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, { start: '11:00', end: '11:30' }));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:00'));
  });

  it('when the same event is delivered twice, then it has one effect', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), morning);
    const created = booking(schedule.id, { start: '09:30', end: '10:00' });
    const id = randomUUID();
    await publishEvent(running, bookingCreatedEvent, created, { id });
    await publishEvent(running, bookingCancelledEvent, { ...created, status: 'CANCELLED', version: 2, previous_status: 'PENDING' });
    // The same event id again (past JetStream's duplicate window, e.g. after a producer's crash): the inbox drops it.
    await running.infra.bus.js.publish(
      running.infra.bus.subject(bookingCreatedEvent.subject),
      JSON.stringify({
        id,
        type: bookingCreatedEvent.subject,
        schema_version: bookingCreatedEvent.version,
        occurred_at: new Date().toISOString(),
        organization_id: organizationId,
        correlation_id: null,
        data: { ...created, version: 3 },
      }),
    );
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, { start: '11:30', end: '12:00' }));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30'));
  });

  it("when a booking event names another organization's schedule, then it is refused and the slots stay free", async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, { start: '09:00', end: '09:30' }), {
      organizationId: randomUUID(),
    });
    // A genuine event published after the forged one: once it shows, the forged one has been handled.
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, { start: '11:30', end: '12:00' }));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30'));
  });
});
