import { describe, expect, it } from 'vitest';
import { eventually, preparedForTests, startedForTests } from '@app/service-testing';
import { failure } from './support/failure.js';
import { day, openSchedule, quarterHour, startSdkStack } from './support/sdk-stack.js';

describe('scheduling through the SDK', () => {
  const sdk = startedForTests(startSdkStack, { timeout: 120_000 });
  const api = preparedForTests(() => sdk.organization('Scheduling'));

  it('when a schedule is created, listed, read, updated and deleted, then each answer is the typed record', async () => {
    const created = await api.POST('/api/v1/schedules', { body: { name: 'Desk', timezone: 'Europe/Berlin', slot_duration: 45 } });
    const id = created.data.data.id;
    expect(created.response.status).toBe(201);
    expect(created.data.data).toMatchObject({ name: 'Desk', timezone: 'Europe/Berlin', slot_duration: 45, is_active: true });

    const list = await api.GET('/api/v1/schedules', { params: { query: { limit: 200 } } });
    expect(list.data.data.map((s) => s.id)).toContain(id);
    const read = await api.GET('/api/v1/schedules/{id}', { params: { path: { id } } });
    expect(read.data.data.availability).toHaveLength(5); // Mon–Fri by default
    const updated = await api.PATCH('/api/v1/schedules/{id}', {
      params: { path: { id } },
      body: { name: 'Front desk', minimum_notice: 60 },
    });
    expect(updated.data.data).toMatchObject({ id, name: 'Front desk', minimum_notice: 60 });
    const deleted = await api.DELETE('/api/v1/schedules/{id}', { params: { path: { id } } });
    expect(deleted.data.data).toEqual({ id, deleted: true });
    expect((await api.GET('/api/v1/schedules/{id}', { params: { path: { id } } })).data.data.is_active).toBe(false);
  });

  it('when slots are asked without a key, then the public path answers them', async () => {
    const scheduleId = await openSchedule(api);

    const { data } = await sdk.anonymous.GET('/api/bookings/slots', {
      params: { query: { scheduleId, startDate: day(2), endDate: day(2) } },
    });

    expect(data.schedule).toMatchObject({ id: scheduleId, timezone: 'UTC', slotDuration: 15 });
    expect(data.days).toHaveLength(1);
    expect(data.days[0]?.slots).toHaveLength(96);
    expect(data.days[0]?.slots[0]).toEqual({
      start: `${day(2)}T00:00:00.000Z`,
      end: `${day(2)}T00:15:00.000Z`,
      status: 'available',
      label: '00:00',
      seats_remaining: 1,
    });
  });

  it('when a booking is created, listed, read, confirmed and cancelled, then the SDK carries each step', async () => {
    const scheduleId = await openSchedule(api);
    const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };

    const created = await api.POST('/api/v1/bookings', {
      body: { schedule_id: scheduleId, ...quarterHour(40), attendee, metadata: { ref: 7 } },
    });
    const id = created.data.data.id;
    expect(created.data.data.status).toBe('PENDING');
    expect(created.replayed).toBe(false);

    const list = await api.GET('/api/v1/bookings', {
      params: { query: { schedule_id: scheduleId, attendee_email: 'ADA@', upcoming: true } },
    });
    expect(list.data.data.map((b) => b.id)).toEqual([id]);
    expect(list.data.meta).toEqual({ total: 1, limit: 50, offset: 0, hasMore: false, next_cursor: null });
    const read = await api.GET('/api/v1/bookings/{id}', { params: { path: { id } } });
    expect(read.data.data).toMatchObject({ attendee: { name: 'Ada Lovelace' }, attendee_email: 'ada@example.com', metadata: { ref: 7 } });
    const confirmed = await api.PATCH('/api/v1/bookings/{id}', { params: { path: { id } }, body: { status: 'CONFIRMED' } });
    expect(confirmed.data.data).toMatchObject({ id, status: 'CONFIRMED' });
    const cancelled = await api.DELETE('/api/v1/bookings/{id}', { params: { path: { id } } });
    expect(cancelled.data.data).toMatchObject({ id, status: 'CANCELLED', cancelled: true });

    const again = await failure(api.DELETE('/api/v1/bookings/{id}', { params: { path: { id } } }));
    expect(again).toMatchObject({ status: 400, code: 'INVALID_TRANSITION', message: 'Cannot transition from CANCELLED to CANCELLED' });
  });

  it('when a Google calendar is connected with tokens, then it syncs, can be listed, read, synced again and removed', async () => {
    const scheduleId = await openSchedule(api);
    const credentials = { access_token: 'at', refresh_token: 'rt', expires_at: new Date(Date.now() + 3_600_000).toISOString() };

    const created = await api.POST('/api/v1/calendar-connections', { body: { provider: 'google', schedule_id: scheduleId, credentials } });
    const id = created.data.data.id;
    expect(created.data.data).toMatchObject({ provider: 'google', schedule_id: scheduleId, calendar_ids: ['primary'] });
    expect(JSON.stringify(created.data)).not.toContain('refresh');

    const synced = await eventually(async () => {
      const { data } = await api.GET('/api/v1/calendar-connections/{id}', { params: { path: { id } } });
      return data.data.last_synced_at === null ? undefined : data.data;
    });
    expect(synced.status).toBe('active');
    const list = await api.GET('/api/v1/calendar-connections', { params: { query: { schedule_id: scheduleId } } });
    expect(list.data.data.map((c) => c.id)).toEqual([id]);
    const sync = await api.POST('/api/v1/calendar-connections/{id}/sync', { params: { path: { id } } });
    expect(sync.response.status).toBe(202);
    await api.DELETE('/api/v1/calendar-connections/{id}', { params: { path: { id } } });
    expect((await failure(api.GET('/api/v1/calendar-connections/{id}', { params: { path: { id } } }))).code).toBe('NOT_FOUND');
  });

  it('when a calendar is connected through OAuth, then the authorize URL’s state completes at the public callback', async () => {
    const scheduleId = await openSchedule(api);

    const { data } = await api.GET('/api/v1/calendar-connections/oauth/{provider}/authorize', {
      params: { path: { provider: 'google' }, query: { schedule_id: scheduleId } },
    });
    const state = new URL(data.data.url).searchParams.get('state') ?? '';
    const callback = await sdk.anonymous.GET('/api/calendar-connections/oauth/{provider}/callback', {
      params: { path: { provider: 'google' }, query: { code: 'granted', state } },
    });

    expect(callback.response.status).toBe(201);
    expect(callback.data.data).toMatchObject({ provider: 'google', schedule_id: scheduleId });
  });
});
