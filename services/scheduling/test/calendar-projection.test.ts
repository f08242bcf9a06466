import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { calendarBusyUpdatedEvent, calendarConnectionRemovedEvent } from '@app/contracts';
import { organizationHeaders, startedForTests } from '@app/service-testing';
import { DAY, POLL, allMorning, createSchedule, morning, publishEvent, slotStarts, startScheduling, without } from './support/harness.js';

const running = startedForTests(startScheduling);

describe('calendar.busy.updated and calendar.connection.removed consumer', () => {
  const range = { start: `${DAY}T00:00:00.000Z`, end: '2026-03-05T00:00:00.000Z' };
  const window = (start: string, end: string) => ({ start: `${DAY}T${start}:00.000Z`, end: `${DAY}T${end}:00.000Z` });
  const sync = (
    scheduleId: string,
    connectionId: string,
    windows: { start: string; end: string }[],
    syncedAt: string,
    syncRange = range,
  ) => ({
    connection_id: connectionId,
    schedule_id: scheduleId,
    range: syncRange,
    windows,
    synced_at: syncedAt,
  });
  /** Publishes a sync as calendar-sync's relay does, for the schedule's own organization. */
  const publishSync = (data: ReturnType<typeof sync>) => publishEvent(running, calendarBusyUpdatedEvent, data);

  it('when a sync reports busy windows, then they block; a later sync replaces them; removal frees all', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const connection = randomUUID();
    await publishSync(sync(schedule.id, connection, [window('09:10', '09:20'), window('11:00', '11:30')], '2026-03-01T10:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('09:00', '11:00'));

    await publishSync(sync(schedule.id, connection, [window('10:00', '10:30')], '2026-03-01T11:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('10:00'));

    await publishEvent(running, calendarConnectionRemovedEvent, { connection_id: connection, schedule_id: schedule.id });
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(allMorning);
  });

  it('when an older sync arrives after a newer one, then it is ignored', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const connection = randomUUID();
    await publishSync(sync(schedule.id, connection, [window('09:00', '09:30')], '2026-03-01T12:00:00Z'));
    await publishSync(sync(schedule.id, connection, [window('11:30', '12:00')], '2026-03-01T11:00:00Z'));
    await publishSync(sync(schedule.id, randomUUID(), [window('10:30', '11:00')], '2026-03-01T11:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('09:00', '10:30'));
  });

  it('when a sync arrives after the connection was removed, then its windows stay gone', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const connection = randomUUID();
    await publishSync(sync(schedule.id, connection, [window('09:00', '09:30')], '2026-03-01T10:00:00Z'));
    await publishEvent(running, calendarConnectionRemovedEvent, { connection_id: connection, schedule_id: schedule.id });
    await publishSync(sync(schedule.id, connection, [window('10:00', '10:30')], '2026-03-01T11:00:00Z'));
    const marker = randomUUID();
    await publishSync(sync(schedule.id, marker, [window('11:30', '12:00')], '2026-03-01T11:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30'));
  });

  it('when a sync covers part of a window, then only the part inside its range is replaced', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const connection = randomUUID();
    await publishSync(sync(schedule.id, connection, [window('09:00', '12:00')], '2026-03-01T10:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual([]);
    // The next sync only covers 10:00–11:00 (nothing busy there); 09:00–10:00 and 11:00–12:00 stay busy.
    await publishSync(sync(schedule.id, connection, [], '2026-03-01T11:00:00Z', window('10:00', '11:00')));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual([`${DAY}T10:00:00.000Z`, `${DAY}T10:30:00.000Z`]);
  });

  it('when the schedule has buffers, then they are kept free around busy windows', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), { ...morning, buffer_after: 30 });
    await publishSync(sync(schedule.id, randomUUID(), [window('10:00', '10:30')], '2026-03-01T10:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('10:00', '10:30'));
  });

  it("when calendar events name another organization's schedule, then they are refused: its slots stay as they were", async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const connection = randomUUID();
    const intruder = { organizationId: randomUUID() };
    await publishEvent(running, calendarBusyUpdatedEvent, sync(schedule.id, connection, [range], '2026-03-01T10:00:00Z'), intruder);
    const genuine = randomUUID();
    await publishSync(sync(schedule.id, genuine, [window('11:30', '12:00')], '2026-03-01T10:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30'));
    // Nor can a forged removal free the time the genuine connection blocks.
    await publishEvent(running, calendarConnectionRemovedEvent, { connection_id: genuine, schedule_id: schedule.id }, intruder);
    await publishSync(sync(schedule.id, randomUUID(), [window('09:00', '09:30')], '2026-03-01T10:00:00Z'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('09:00', '11:30'));
  });
});
