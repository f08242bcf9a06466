import { randomBytes } from 'node:crypto';
import type { SlotsResponse } from '@app/contracts';
import { anonymousHeaders, startTestService, type RunningService } from '@app/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { configSchema as bookingsConfigSchema, type Config as BookingsConfig } from '../../bookings/src/config.js';
import { service as bookingsService } from '../../bookings/src/service.js';
import { configSchema as schedulingConfigSchema, type Config as SchedulingConfig } from '../../scheduling/src/config.js';
import { service as schedulingService } from '../../scheduling/src/service.js';
import { configSchema, type Config } from '../src/config.js';
import { service } from '../src/service.js';
import { FakeProviders } from './support/fake-providers.js';
import { FileDatabase, createConnection, newOrganization, storedTokens, testServiceEnv, waitFor, waitForSync } from './support/harness.js';

/**
 * The whole path over real NATS and Postgres: calendar-sync reads the fake Google calendar with the real
 * client, publishes calendar.busy.updated, the real scheduling service applies it to slots and to the
 * availability check the real bookings service asks before it books.
 */
const fake = new FakeProviders();
const database = FileDatabase.create();
// A NATS prefix of this file's own: only the real scheduling service answers scheduling requests here.
const env = { DATABASE_URL: database.url, NATS_PREFIX: `${inject('natsPrefix')}_e2e${randomBytes(3).toString('hex')}` };
let scheduling: RunningService<SchedulingConfig>;
let bookings: RunningService<BookingsConfig>;
let calendarSync: RunningService<Config>;

beforeAll(async () => {
  await fake.start();
  await database.ensure();
  scheduling = await startTestService(schedulingService, schedulingConfigSchema, env);
  bookings = await startTestService(bookingsService, bookingsConfigSchema, env);
  calendarSync = await startTestService(service, configSchema, testServiceEnv(fake, env));
});
afterAll(async () => {
  await Promise.all([calendarSync?.stop(), bookings?.stop(), scheduling?.stop()]);
  await fake.stop();
  await database.drop();
});

/** A day a few days ahead (UTC), so minimum notice and "today" never interfere. */
const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
const at = (hour: number) => `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

async function slotStarts(scheduleId: string): Promise<string[]> {
  const response = await scheduling.app.inject({
    url: '/api/bookings/slots',
    query: { scheduleId, startDate: day, endDate: day },
    headers: anonymousHeaders(),
  });
  expect(response.statusCode).toBe(200);
  return response.json<SlotsResponse>().days.flatMap((d) => d.slots.map((s) => s.start));
}

async function book(headers: Record<string, string>, scheduleId: string, hour: number) {
  return bookings.app.inject({
    method: 'POST',
    url: '/api/v1/bookings',
    headers,
    payload: { schedule_id: scheduleId, start_time: at(hour), end_time: at(hour + 1), attendee: { name: 'Ada', email: 'ada@example.com' } },
  });
}

async function syncNow(headers: Record<string, string>, id: string) {
  const before = new Date();
  const response = await calendarSync.app.inject({ method: 'POST', url: `/api/v1/calendar-connections/${id}/sync`, headers });
  expect(response.statusCode).toBe(202);
  return waitForSync(calendarSync, id, before);
}

describe('calendar busy time end to end', () => {
  it('when the Google calendar is busy, then slots disappear and bookings there are refused, until it is free again', async () => {
    const org = newOrganization();
    const created = await scheduling.app.inject({
      method: 'POST',
      url: '/api/v1/schedules',
      headers: org.headers,
      payload: {
        name: 'Consulting',
        timezone: 'UTC',
        slot_duration: 60,
        availability: WEEK.map((d) => ({ day: d, start: '09:00', end: '17:00' })),
      },
    });
    expect(created.statusCode).toBe(201);
    const scheduleId = created.json<{ data: { id: string } }>().data.id;
    expect(await slotStarts(scheduleId)).toContain(at(10));

    // Busy 10:00-11:00; the access token expires within the refresh margin, so the first sync refreshes it.
    const account = fake.account();
    account.google.set('primary', [{ start: at(10), end: at(11) }]);
    const firstToken = account.accessToken;
    const connection = await createConnection(calendarSync, org.headers, {
      provider: 'google',
      schedule_id: scheduleId,
      credentials: account.credentials(60_000),
    });
    await waitFor(async () => ((await slotStarts(scheduleId)).includes(at(10)) ? undefined : true), 'the busy slot to disappear');
    expect(await slotStarts(scheduleId)).toEqual(expect.arrayContaining([at(9), at(11)]));
    const refused = await book(org.headers, scheduleId, 10);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SLOT_UNAVAILABLE' });

    // Token refresh happened, and the stored tokens are ciphertext.
    const stored = await storedTokens(calendarSync, connection.id);
    expect(stored.accessToken).not.toBe(firstToken);
    expect(stored.accessToken).toBe(account.accessToken);
    const { rows } = await calendarSync.infra.pool.query<{ raw: string }>(
      "SELECT encode(access_token_cipher, 'escape') || encode(refresh_token_cipher, 'escape') AS raw FROM calendar_sync.calendar_connections WHERE id = $1",
      [connection.id],
    );
    expect(rows[0]?.raw).not.toContain(account.accessToken);
    expect(rows[0]?.raw).not.toContain(account.refreshToken);

    // Free again: after a sync the slot is back and can be booked.
    account.google.set('primary', []);
    await syncNow(org.headers, connection.id);
    await waitFor(async () => ((await slotStarts(scheduleId)).includes(at(10)) ? true : undefined), 'the slot to come back');
    expect((await book(org.headers, scheduleId, 10)).statusCode).toBe(201);

    // Busy at 13:00, then the refresh token is revoked: reauth_required, and the last known window keeps blocking.
    account.google.set('primary', [{ start: at(13), end: at(14) }]);
    await syncNow(org.headers, connection.id);
    await waitFor(async () => ((await slotStarts(scheduleId)).includes(at(13)) ? undefined : true), 'the 13:00 slot to disappear');
    fake.revokeRefreshTokens(account);
    fake.expireAccessToken(account);
    const row = await syncNow(org.headers, connection.id);
    expect(row).toMatchObject({ status: 'reauth_required', next_sync_at: null });
    expect(await slotStarts(scheduleId)).not.toContain(at(13));
    expect((await book(org.headers, scheduleId, 13)).statusCode).toBe(409);

    // Disconnecting removes its windows at once.
    const removed = await calendarSync.app.inject({
      method: 'DELETE',
      url: `/api/v1/calendar-connections/${connection.id}`,
      headers: org.headers,
    });
    expect(removed.statusCode).toBe(200);
    await waitFor(async () => ((await slotStarts(scheduleId)).includes(at(13)) ? true : undefined), 'the 13:00 slot to come back');
  });

  it('when the schedule belongs to another organization or is unknown, then 404 SCHEDULE_NOT_FOUND from the real scheduling service', async () => {
    const owner = newOrganization();
    const created = await scheduling.app.inject({
      method: 'POST',
      url: '/api/v1/schedules',
      headers: owner.headers,
      payload: { name: 'Private' },
    });
    const scheduleId = created.json<{ data: { id: string } }>().data.id;
    const response = await calendarSync.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload: { provider: 'google', schedule_id: scheduleId, credentials: fake.account().credentials() },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' });
    const malformed = await calendarSync.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: owner.headers,
      payload: { provider: 'outlook', schedule_id: 'not-a-uuid', credentials: fake.account().credentials() },
    });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND' });
  });
});
