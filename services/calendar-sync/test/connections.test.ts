import { randomUUID } from 'node:crypto';
import type { CalendarConnection } from '@app/contracts';
import { organizationHeaders } from '@app/service-testing';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_SCHEDULE_ID } from './support/fake-scheduling.js';
import {
  EventCollector,
  connectionBody,
  connectionRow,
  createConnection,
  newOrganization,
  storedTokens,
  calendarSyncSuite,
} from './support/harness.js';

const suite = calendarSyncSuite();
const { fake } = suite;

const body = (overrides: Record<string, unknown> = {}) => connectionBody(fake, overrides);

describe('POST /api/v1/calendar-connections', () => {
  it('when the body is valid, then 201 with the connection and never the credentials', async () => {
    const org = newOrganization();
    const payload = body({ calendar_ids: ['primary', 'team@example.com'] });
    const response = await suite.running.app.inject({ method: 'POST', url: '/api/v1/calendar-connections', headers: org.headers, payload });
    expect(response.statusCode).toBe(201);
    const data = (response.json() as { data: CalendarConnection }).data;
    expect(data).toEqual({
      id: expect.any(String),
      provider: 'google',
      schedule_id: payload.schedule_id,
      calendar_ids: ['primary', 'team@example.com'],
      write_calendar_id: null,
      status: 'active',
      last_synced_at: null,
      last_error: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(response.body).not.toContain(payload.credentials.access_token);
    expect(response.body).not.toContain(payload.credentials.refresh_token);
  });

  it('when created, then the tokens are stored encrypted under the current key, not as plaintext', async () => {
    const org = newOrganization();
    const payload = body();
    const connection = await createConnection(suite.running, org.headers, payload);
    const row = await connectionRow(suite.running, connection.id);
    const { rows } = await suite.running.infra.pool.query<{ dump: string }>(
      `SELECT row_to_json(c)::text || encode(c.access_token_cipher, 'escape') || encode(c.refresh_token_cipher, 'escape') AS dump
         FROM calendar_sync.calendar_connections c WHERE id = $1`,
      [connection.id],
    );
    expect(row?.token_key_id).toBe('k2');
    expect(rows[0]?.dump).not.toContain(payload.credentials.access_token);
    expect(rows[0]?.dump).not.toContain(payload.credentials.refresh_token);
    const tokens = await storedTokens(suite.running, connection.id);
    expect(tokens.refreshToken).toBe(payload.credentials.refresh_token);
  });

  it('when calendar_ids is omitted, then it defaults to primary', async () => {
    const connection = await createConnection(suite.running, newOrganization().headers, body());
    expect(connection.calendar_ids).toEqual(['primary']);
  });

  it('when a connection is created, then calendar.connection.created is published', async () => {
    const created = new EventCollector<{ connection_id: string; record: unknown }>(suite.running, 'calendar.connection.created');
    const org = newOrganization();
    const connection = await createConnection(suite.running, org.headers, body());
    const event = await created.waitFor((e) => e.data.connection_id === connection.id, 'calendar.connection.created');
    expect(event.organization_id).toBe(org.id);
    // The record as the create answered it (event-carried state).
    expect(event.data.record).toEqual(connection);
    created.stop();
  });

  it.each([
    [{ provider: 'yahoo' }, 'provider'],
    [{ schedule_id: undefined }, 'schedule_id is required'],
    [{ credentials: undefined }, 'credentials is required'],
    [{ credentials: { access_token: 'a', refresh_token: 'r' } }, 'credentials.expires_at is required'],
    [{ credentials: { access_token: '', refresh_token: 'r', expires_at: '2030-01-01T00:00:00Z' } }, 'credentials.access_token'],
    [{ credentials: { access_token: 'a', refresh_token: 'r', expires_at: '2030-01-01T00:00:00' } }, 'credentials.expires_at'],
    [{ calendar_ids: [] }, 'calendar_ids'],
    [{ calendar_ids: ['a', 'a'] }, 'calendar_ids'],
    [{ calendar_ids: [' '] }, 'calendar_ids'],
  ])('when the body is %j, then 400 naming %s', async (overrides, field) => {
    const response = await suite.running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload: body(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining(field) });
  });

  it('when the schedule is unknown, then 404 SCHEDULE_NOT_FOUND', async () => {
    for (const scheduleId of [UNKNOWN_SCHEDULE_ID, 'not-a-uuid']) {
      const response = await suite.running.app.inject({
        method: 'POST',
        url: '/api/v1/calendar-connections',
        headers: newOrganization().headers,
        payload: body({ schedule_id: scheduleId }),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Schedule not found or inactive', code: 'SCHEDULE_NOT_FOUND' });
    }
  });

  it('when the organization header is missing, then 401', async () => {
    const response = await suite.running.app.inject({ method: 'POST', url: '/api/v1/calendar-connections', payload: body() });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/v1/calendar-connections', () => {
  it('when listing, then only the organization connections in creation order, filtered and paginated', async () => {
    const org = newOrganization();
    const scheduleId = randomUUID();
    const first = await createConnection(suite.running, org.headers, body({ schedule_id: scheduleId }));
    const second = await createConnection(suite.running, org.headers, body({ provider: 'outlook' }));
    await createConnection(suite.running, newOrganization().headers, body());

    const all = await suite.running.app.inject({ url: '/api/v1/calendar-connections', headers: org.headers });
    expect(all.json()).toMatchObject({
      data: [{ id: first.id }, { id: second.id }],
      meta: { total: 2, limit: 50, offset: 0, hasMore: false, next_cursor: null },
    });

    const bySchedule = await suite.running.app.inject({
      url: `/api/v1/calendar-connections?schedule_id=${scheduleId}`,
      headers: org.headers,
    });
    expect((bySchedule.json() as { data: CalendarConnection[] }).data.map((c) => c.id)).toEqual([first.id]);
    const byProvider = await suite.running.app.inject({ url: '/api/v1/calendar-connections?provider=outlook', headers: org.headers });
    expect((byProvider.json() as { data: CalendarConnection[] }).data.map((c) => c.id)).toEqual([second.id]);
    const page = await suite.running.app.inject({ url: '/api/v1/calendar-connections?limit=1&offset=1', headers: org.headers });
    expect(page.json()).toMatchObject({ data: [{ id: second.id }], meta: { total: 2, limit: 1, offset: 1, hasMore: false } });
    const malformed = await suite.running.app.inject({ url: '/api/v1/calendar-connections?schedule_id=nope', headers: org.headers });
    expect(malformed.json()).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it.each(['limit=0', 'limit=201', 'offset=-1', 'status=broken', 'provider=yahoo'])('when the query has %s, then 400', async (query) => {
    const response = await suite.running.app.inject({ url: `/api/v1/calendar-connections?${query}`, headers: newOrganization().headers });
    expect(response.statusCode).toBe(400);
  });
});

describe('GET /api/v1/calendar-connections/{id}', () => {
  it('when the id is of another organization, malformed or unknown, then 404', async () => {
    const connection = await createConnection(suite.running, newOrganization().headers, body());
    for (const [id, headers] of [
      [connection.id, organizationHeaders()],
      ['not-a-uuid', organizationHeaders()],
      [randomUUID(), organizationHeaders()],
    ] as const) {
      const response = await suite.running.app.inject({ url: `/api/v1/calendar-connections/${id}`, headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Calendar connection not found', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /api/v1/calendar-connections/{id}', () => {
  it('when deleted, then 200, it is gone and calendar.connection.removed is published', async () => {
    const removed = new EventCollector<{ connection_id: string; schedule_id: string }>(suite.running, 'calendar.connection.removed');
    const org = newOrganization();
    const connection = await createConnection(suite.running, org.headers, body());
    const response = await suite.running.app.inject({
      method: 'DELETE',
      url: `/api/v1/calendar-connections/${connection.id}`,
      headers: org.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id: connection.id, deleted: true } });
    const event = await removed.waitFor((e) => e.data.connection_id === connection.id, 'calendar.connection.removed');
    expect(event.data.schedule_id).toBe(connection.schedule_id);
    const again = await suite.running.app.inject({
      method: 'DELETE',
      url: `/api/v1/calendar-connections/${connection.id}`,
      headers: org.headers,
    });
    expect(again.statusCode).toBe(404);
    removed.stop();
  });

  it('when the connection belongs to another organization, then 404 and it stays', async () => {
    const org = newOrganization();
    const connection = await createConnection(suite.running, org.headers, body());
    const response = await suite.running.app.inject({
      method: 'DELETE',
      url: `/api/v1/calendar-connections/${connection.id}`,
      headers: organizationHeaders(),
    });
    expect(response.statusCode).toBe(404);
    expect(await connectionRow(suite.running, connection.id)).toBeDefined();
  });
});

describe('POST /api/v1/calendar-connections/{id}/sync', () => {
  it('when asked, then 202 with the connection', async () => {
    const org = newOrganization();
    const connection = await createConnection(suite.running, org.headers, body());
    const response = await suite.running.app.inject({
      method: 'POST',
      url: `/api/v1/calendar-connections/${connection.id}/sync`,
      headers: org.headers,
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ data: { id: connection.id } });
  });

  it('when the id is unknown, then 404', async () => {
    const response = await suite.running.app.inject({
      method: 'POST',
      url: `/api/v1/calendar-connections/${randomUUID()}/sync`,
      headers: organizationHeaders(),
    });
    expect(response.statusCode).toBe(404);
  });
});
