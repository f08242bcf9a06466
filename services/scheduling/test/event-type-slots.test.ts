import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventTypeCreatedEvent, eventTypeDeletedEvent, eventTypeUpdatedEvent, type EventTypeRecord } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { DAY, POLL, createSchedule, getSlots, morning, publishEvent, startScheduling } from './support/harness.js';

// `eventTypeId` on the slots, answered from scheduling's projection of the events service's event types.
const running = startedForTests(startScheduling);

function eventType(overrides: Partial<EventTypeRecord> = {}): EventTypeRecord {
  return {
    id: randomUUID(),
    title: 'Intro call',
    slug: 'intro-call',
    description: null,
    duration: 45,
    location_type: 'video',
    color: null,
    requires_approval: false,
    is_active: true,
    created_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
    ...overrides,
  };
}

async function published(organizationId: string, record: EventTypeRecord): Promise<EventTypeRecord> {
  await publishEvent(running, eventTypeCreatedEvent, { id: record.id, slug: record.slug, record }, { organizationId });
  return record;
}

async function slotsBy(scheduleId: string, eventTypeId: string) {
  return getSlots(running, { scheduleId, eventTypeId, startDate: DAY, endDate: DAY });
}

const at = (time: string) => `${DAY}T${time}:00.000Z`;

describe('GET /api/bookings/slots?eventTypeId=', () => {
  it("when the schedule's slot_interval was not set, then slots are as long as the duration and step by it", async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), morning);
    const type = await published(organizationId, eventType());
    await expect.poll(async () => (await slotsBy(schedule.id, type.id)).status, POLL).toBe(200);

    const { body } = await slotsBy(schedule.id, type.id);
    expect(body.schedule.slotDuration).toBe(45);
    expect(body.days[0]?.slots.map((slot) => [slot.start, slot.end])).toEqual([
      [at('09:00'), at('09:45')],
      [at('09:45'), at('10:30')],
      [at('10:30'), at('11:15')],
      [at('11:15'), at('12:00')],
    ]);
    // Without it, the schedule's own 30-minute slots.
    const own = await getSlots(running, { scheduleId: schedule.id, startDate: DAY, endDate: DAY });
    expect(own.body.schedule.slotDuration).toBe(30);
    expect(own.body.days[0]?.slots).toHaveLength(6);
  });

  it("when the schedule's slot_interval was set, then event type slots step by it", async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), { ...morning, slot_interval: 30 });
    const type = await published(organizationId, eventType());
    await expect
      .poll(async () => (await slotsBy(schedule.id, type.id)).body.days?.[0]?.slots.map((slot) => slot.start), POLL)
      .toEqual(['09:00', '09:30', '10:00', '10:30', '11:00'].map(at));
  });

  it('when the event type changes its duration or is deactivated, then the slots follow; deleted, it is a 404', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), morning);
    const type = await published(organizationId, eventType({ duration: 60 }));
    await expect.poll(async () => (await slotsBy(schedule.id, type.id)).body.schedule?.slotDuration, POLL).toBe(60);

    const longer = { ...type, duration: 90, updated_at: '2026-03-01T01:00:00.000Z' };
    await publishEvent(
      running,
      eventTypeUpdatedEvent,
      { id: type.id, slug: type.slug, record: longer, previous_attributes: { duration: 60 } },
      { organizationId },
    );
    await expect.poll(async () => (await slotsBy(schedule.id, type.id)).body.schedule?.slotDuration, POLL).toBe(90);

    const inactive = { ...longer, is_active: false, updated_at: '2026-03-01T02:00:00.000Z' };
    await publishEvent(
      running,
      eventTypeUpdatedEvent,
      { id: type.id, slug: type.slug, record: inactive, previous_attributes: { is_active: true } },
      { organizationId },
    );
    await expect
      .poll(async () => (await slotsBy(schedule.id, type.id)).body, POLL)
      .toEqual({ error: 'Event type not found', code: 'NOT_FOUND' });

    const other = await published(organizationId, eventType());
    await publishEvent(running, eventTypeDeletedEvent, { id: other.id }, { organizationId });
    await published(organizationId, other); // a late duplicate of its creation, after the deletion
    const marker = await published(organizationId, eventType());
    await expect.poll(async () => (await slotsBy(schedule.id, marker.id)).status, POLL).toBe(200);
    expect((await slotsBy(schedule.id, other.id)).status).toBe(404);
  });

  it.each([
    ['unknown', async () => randomUUID()],
    ['malformed', async () => 'not-an-id'],
    ["another organization's", async () => (await published(randomUUID(), eventType())).id],
  ])('when the event type is %s, then it is a 404 NOT_FOUND', async (_case, id) => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), morning);
    const eventTypeId = await id();
    // A marker of the schedule's own organization, published after: once it is projected, so is the case's event type.
    const marker = await published(organizationId, eventType());
    await expect.poll(async () => (await slotsBy(schedule.id, marker.id)).status, POLL).toBe(200);
    const { status, body } = await slotsBy(schedule.id, eventTypeId);
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Event type not found', code: 'NOT_FOUND' });
  });
});
