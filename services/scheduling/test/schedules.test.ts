import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULING_STREAM, type ScheduleRecord } from '@app/contracts';
import { anonymousHeaders, organizationHeaders } from '@app/service-testing';
import { NOW, POLL, createSchedule, startScheduling, type Running } from './support/harness.js';

let running: Running;
let ticks = 0;
beforeAll(async () => {
  // A clock that moves a millisecond per reading, so records created one after another sort in that order.
  running = await startScheduling(() => new Date(NOW.getTime() + ticks++));
});
afterAll(() => running.stop());

describe('GET /api/v1/schedules', () => {
  it('when an organization lists, then it sees only its own schedules, oldest first, paginated', async () => {
    const headers = organizationHeaders();
    const mine = [];
    for (const name of ['A', 'B', 'C']) mine.push(await createSchedule(running, headers, { name }));
    await createSchedule(running, organizationHeaders(), { name: 'Other' });

    const page = await running.app.inject({ url: '/api/v1/schedules?limit=2&offset=1', headers });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      data: [mine[1], mine[2]],
      meta: { total: 3, limit: 2, offset: 1, hasMore: false, next_cursor: null },
    });
  });

  it('when active=false is asked, then only deactivated schedules are listed', async () => {
    const headers = organizationHeaders();
    const kept = await createSchedule(running, headers, { name: 'Kept' });
    const gone = await createSchedule(running, headers, { name: 'Gone' });
    await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${gone.id}`, headers });
    const inactive = await running.app.inject({ url: '/api/v1/schedules?active=false', headers });
    const active = await running.app.inject({ url: '/api/v1/schedules?active=true', headers });
    expect(inactive.json<{ data: ScheduleRecord[] }>().data.map((s) => s.id)).toEqual([gone.id]);
    expect(active.json<{ data: ScheduleRecord[] }>().data.map((s) => s.id)).toEqual([kept.id]);
  });

  it.each([['limit=0'], ['limit=201'], ['offset=-1'], ['limit=abc'], ['active=yes']])(
    'when the query has %s, then it is a 400',
    async (query) => {
      const response = await running.app.inject({ url: `/api/v1/schedules?${query}`, headers: organizationHeaders() });
      expect(response.statusCode).toBe(400);
    },
  );
});

describe('GET /api/v1/schedules/{id}', () => {
  it("when the schedule is the organization's, then it is returned whole", async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const response = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: schedule });
  });

  it.each([
    ["another organization's", async () => (await createSchedule(running, organizationHeaders())).id],
    ['an unknown', async () => randomUUID()],
    ['a malformed', async () => 'not-a-uuid'],
  ])('when the id is %s, then it is a 404', async (_case, id) => {
    const response = await running.app.inject({ url: `/api/v1/schedules/${await id()}`, headers: organizationHeaders() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Schedule not found', code: 'NOT_FOUND' });
  });
});

describe('PATCH /api/v1/schedules/{id}', () => {
  it('when fields are changed, then they are stored, the rest is kept and updated_at moves', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const availability = [{ day: 'saturday', start: '10:00', end: '14:00' }];
    const response = await running.app.inject({
      method: 'PATCH',
      url: `/api/v1/schedules/${schedule.id}`,
      headers,
      payload: { name: 'Weekend', availability, buffer_after: 10, timezone: 'Asia/Tokyo' },
    });
    expect(response.statusCode).toBe(200);
    const { updated_at: updatedAt, ...changed } = response.json<{ data: ScheduleRecord }>().data;
    const { updated_at: createdAt, ...original } = schedule;
    expect(changed).toEqual({ ...original, name: 'Weekend', availability, buffer_after: 10, timezone: 'Asia/Tokyo' });
    expect(Date.parse(updatedAt)).toBeGreaterThan(Date.parse(createdAt));
  });

  it('when slot_interval was never set, then it follows slot_duration; null makes it follow again', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const patch = (payload: object) =>
      running.app
        .inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload })
        .then((r) => r.json<{ data: ScheduleRecord }>().data);

    expect(await patch({ slot_duration: 60 })).toMatchObject({ slot_duration: 60, slot_interval: 60 });
    expect(await patch({ slot_interval: 15 })).toMatchObject({ slot_duration: 60, slot_interval: 15 });
    expect(await patch({ slot_duration: 45 })).toMatchObject({ slot_duration: 45, slot_interval: 15 });
    expect(await patch({ slot_interval: null })).toMatchObject({ slot_duration: 45, slot_interval: 45 });
  });

  it('when the body is empty, then the schedule is returned unchanged', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const response = await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload: {} });
    expect(response.json()).toEqual({ data: schedule });
  });

  it.each([
    [
      'overlapping intervals',
      {
        availability: [
          { day: 'friday', start: '09:00', end: '12:00' },
          { day: 'friday', start: '09:30', end: '10:00' },
        ],
      },
    ],
    ['a bad zone', { timezone: 'Europe/Atlantis' }],
    ['an unknown field', { colour: 'red' }],
    ['a null name', { name: null }],
  ])('when it has %s, then it is a 400 and nothing changes', async (_case, payload) => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const response = await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload });
    expect(response.statusCode).toBe(400);
    const after = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(after.json()).toEqual({ data: schedule });
  });

  it("when the schedule is another organization's, then it is a 404 and it is untouched", async () => {
    const owner = organizationHeaders();
    const schedule = await createSchedule(running, owner);
    const response = await running.app.inject({
      method: 'PATCH',
      url: `/api/v1/schedules/${schedule.id}`,
      headers: organizationHeaders(),
      payload: { name: 'Hijacked' },
    });
    expect(response.statusCode).toBe(404);
    const after = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers: owner });
    expect(after.json<{ data: ScheduleRecord }>().data.name).toBe('Consulting');
  });
});

describe('DELETE /api/v1/schedules/{id}', () => {
  it('when the schedule is deleted, then it is deactivated, still readable, and its slots are a 404', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    const response = await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id: schedule.id, deleted: true } });

    const after = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(after.json<{ data: ScheduleRecord }>().data.is_active).toBe(false);
    const slots = await running.app.inject({ url: `/api/bookings/slots?scheduleId=${schedule.id}`, headers: anonymousHeaders() });
    expect(slots.statusCode).toBe(404);
  });

  it('when an inactive schedule is deleted again, then the answer is the same and it stays inactive', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers, { is_active: false });
    const response = await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(response.json()).toEqual({ data: { id: schedule.id, deleted: true } });
    const after = await running.app.inject({ url: `/api/v1/schedules/${schedule.id}`, headers });
    expect(after.json()).toEqual({ data: schedule });
  });

  it('when a deactivated schedule is patched with is_active true, then it offers slots again', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${schedule.id}`, headers });
    await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload: { is_active: true } });
    const slots = await running.app.inject({ url: `/api/bookings/slots?scheduleId=${schedule.id}`, headers: anonymousHeaders() });
    expect(slots.statusCode).toBe(200);
  });

  it.each([
    ["another organization's", async () => (await createSchedule(running, organizationHeaders())).id],
    ['a malformed', async () => '12345'],
  ])('when the id is %s, then it is a 404', async (_case, id) => {
    const response = await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${await id()}`, headers: organizationHeaders() });
    expect(response.statusCode).toBe(404);
  });
});

describe('scheduling.schedule.* events', () => {
  const lastEvent = (subject: string) => async () => {
    const bus = running.infra.bus;
    const message = await bus.jsm.streams
      .getMessage(bus.streamName(SCHEDULING_STREAM.name), { last_by_subj: bus.subject(subject) })
      .catch(() => null);
    return message?.json<{ type: string; organization_id: string; data: ScheduleRecord }>() ?? null;
  };

  it('when a schedule is updated and deleted, then each change is published with the new state', async () => {
    const headers = organizationHeaders();
    const schedule = await createSchedule(running, headers);
    await running.app.inject({ method: 'PATCH', url: `/api/v1/schedules/${schedule.id}`, headers, payload: { name: 'Renamed' } });
    await running.app.inject({ method: 'DELETE', url: `/api/v1/schedules/${schedule.id}`, headers });

    await expect
      .poll(lastEvent('scheduling.schedule.updated'), POLL)
      .toMatchObject({ organization_id: headers['x-organization-id'], data: { id: schedule.id, name: 'Renamed', is_active: true } });
    await expect
      .poll(lastEvent('scheduling.schedule.deactivated'), POLL)
      .toMatchObject({ data: { id: schedule.id, name: 'Renamed', is_active: false } });
  });
});
