import { randomUUID } from 'node:crypto';
import type { CalendarConnection } from '@app/contracts';
import { FileDatabase, anonymousHeaders, type RunningService } from '@app/service-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { FAKE_CALENDAR_CLIENT_ID as CLIENT_ID, FakeProviders } from '@app/service-testing';
import { UNKNOWN_SCHEDULE_ID } from './support/fake-scheduling.js';
import { newOrganization, readConnection, startCalendarSync } from './support/harness.js';

const fake = new FakeProviders();
const database = FileDatabase.create();
let running: RunningService<Config>;
let unconfigured: RunningService<Config>;
const PUBLIC_BASE_URL = 'https://book.example.com';

beforeAll(async () => {
  await fake.start();
  running = await startCalendarSync(fake, database, { PUBLIC_BASE_URL });
  unconfigured = await startCalendarSync(fake, database, {
    GOOGLE_CLIENT_ID: '',
    GOOGLE_CLIENT_SECRET: '',
    MICROSOFT_CLIENT_ID: '',
    MICROSOFT_CLIENT_SECRET: '',
  });
});
afterAll(async () => {
  await Promise.all([running.stop(), unconfigured.stop()]);
  await fake.stop();
  await database.drop();
});

async function authorizeUrl(provider: string, headers: Record<string, string>, query: string): Promise<URL> {
  const response = await running.app.inject({ url: `/api/v1/calendar-connections/oauth/${provider}/authorize?${query}`, headers });
  expect(response.statusCode).toBe(200);
  return new URL((response.json() as { data: { url: string } }).data.url);
}

function callback(provider: string, query: Record<string, string>) {
  return running.app.inject({
    url: `/api/calendar-connections/oauth/${provider}/callback?${new URLSearchParams(query)}`,
    headers: anonymousHeaders(),
  });
}

describe('GET /api/v1/calendar-connections/oauth/{provider}/authorize', () => {
  it('when Google is configured, then the consent URL asks for offline free/busy access with a signed state', async () => {
    const url = await authorizeUrl('google', newOrganization().headers, `schedule_id=${randomUUID()}`);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.http.url}/google/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${PUBLIC_BASE_URL}/api/calendar-connections/oauth/google/callback`,
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      scope: 'https://www.googleapis.com/auth/calendar.freebusy',
      state: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });
  });

  it('when Outlook is configured, then the consent URL is the identity platform v2 authorize endpoint', async () => {
    const url = await authorizeUrl('outlook', newOrganization().headers, `schedule_id=${randomUUID()}`);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.http.url}/microsoft/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      response_mode: 'query',
      redirect_uri: `${PUBLIC_BASE_URL}/api/calendar-connections/oauth/outlook/callback`,
      scope: 'offline_access Calendars.Read',
    });
  });

  it('when write_calendar_id is asked for, then both consent URLs add the write scopes, and only then', async () => {
    const headers = newOrganization().headers;
    const google = await authorizeUrl('google', headers, `schedule_id=${randomUUID()}&write_calendar_id=primary`);
    expect(google.searchParams.get('scope')).toBe(
      'https://www.googleapis.com/auth/calendar.freebusy https://www.googleapis.com/auth/calendar.events',
    );
    const outlook = await authorizeUrl('outlook', headers, `schedule_id=${randomUUID()}&write_calendar_id=primary`);
    expect(outlook.searchParams.get('scope')).toBe('offline_access Calendars.ReadWrite');
    const readOnly = await authorizeUrl('outlook', headers, `schedule_id=${randomUUID()}&calendar_ids=primary`);
    expect(readOnly.searchParams.get('scope')).toBe('offline_access Calendars.Read');
  });

  it('when the client id and secret are not set, then 503 naming them, while token-based creation still works', async () => {
    const org = newOrganization();
    for (const [provider, names] of [
      ['google', 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET'],
      ['outlook', 'MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET'],
    ]) {
      const response = await unconfigured.app.inject({
        url: `/api/v1/calendar-connections/oauth/${provider}/authorize?schedule_id=${randomUUID()}`,
        headers: org.headers,
      });
      expect(response.statusCode).toBe(503);
      expect((response.json() as { error: string }).error).toContain(names);
      const back = await unconfigured.app.inject({
        url: `/api/calendar-connections/oauth/${provider}/callback?code=x&state=y`,
        headers: anonymousHeaders(),
      });
      expect(back.statusCode).toBe(503);
    }
    const account = fake.account();
    const created = await unconfigured.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: org.headers,
      payload: { provider: 'google', schedule_id: randomUUID(), credentials: account.credentials() },
    });
    expect(created.statusCode).toBe(201);
  });

  it('when the schedule is unknown, then 404 SCHEDULE_NOT_FOUND; when missing, 400; an unknown provider is 404', async () => {
    const headers = newOrganization().headers;
    const unknown = await running.app.inject({
      url: `/api/v1/calendar-connections/oauth/google/authorize?schedule_id=${UNKNOWN_SCHEDULE_ID}`,
      headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND' });
    const missing = await running.app.inject({ url: '/api/v1/calendar-connections/oauth/google/authorize', headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'schedule_id is required' });
    const provider = await running.app.inject({
      url: `/api/v1/calendar-connections/oauth/yahoo/authorize?schedule_id=${randomUUID()}`,
      headers,
    });
    expect(provider.statusCode).toBe(404);
  });
});

describe('GET /api/calendar-connections/oauth/{provider}/callback', () => {
  it('when Google redirects back with a code, then the tokens are exchanged and the connection stored in the state organization', async () => {
    const org = newOrganization();
    const scheduleId = randomUUID();
    const url = await authorizeUrl('google', org.headers, `schedule_id=${scheduleId}&calendar_ids=primary,team@example.com`);
    const account = fake.account();
    const response = await callback('google', { code: fake.issueCode(account), state: url.searchParams.get('state') ?? '' });
    expect(response.statusCode).toBe(201);
    const connection = (response.json() as { data: CalendarConnection }).data;
    expect(connection).toMatchObject({
      provider: 'google',
      schedule_id: scheduleId,
      calendar_ids: ['primary', 'team@example.com'],
      status: 'active',
    });
    expect((await readConnection(running, org.headers, connection.id)).id).toBe(connection.id);
    const exchange = new URLSearchParams(fake.http.requestsTo('google.token').at(-1)?.body);
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(exchange.get('redirect_uri')).toBe(`${PUBLIC_BASE_URL}/api/calendar-connections/oauth/google/callback`);

    const replay = await callback('google', { code: fake.issueCode(account), state: url.searchParams.get('state') ?? '' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: expect.stringContaining('already used') });
  });

  it('when the authorization asked for write-back, then the callback stores write_calendar_id and exchanges the code for write scopes', async () => {
    const org = newOrganization();
    const url = await authorizeUrl('outlook', org.headers, `schedule_id=${randomUUID()}&write_calendar_id=team-calendar-id`);
    const response = await callback('outlook', { code: fake.issueCode(fake.account()), state: url.searchParams.get('state') ?? '' });
    expect(response.statusCode).toBe(201);
    const connection = (response.json() as { data: CalendarConnection }).data;
    expect(connection).toMatchObject({ provider: 'outlook', calendar_ids: ['primary'], write_calendar_id: 'team-calendar-id' });
    expect((await readConnection(running, org.headers, connection.id)).write_calendar_id).toBe('team-calendar-id');
    const exchange = new URLSearchParams(fake.http.requestsTo('microsoft.token').at(-1)?.body);
    expect(exchange.get('scope')).toBe('offline_access Calendars.ReadWrite');
  });

  it('when Microsoft redirects back with a code, then an outlook connection is stored', async () => {
    const org = newOrganization();
    const url = await authorizeUrl('outlook', org.headers, `schedule_id=${randomUUID()}`);
    const response = await callback('outlook', { code: fake.issueCode(fake.account()), state: url.searchParams.get('state') ?? '' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ data: { provider: 'outlook', calendar_ids: ['primary'], write_calendar_id: null } });
    expect(new URLSearchParams(fake.http.requestsTo('microsoft.token').at(-1)?.body).get('scope')).toBe('offline_access Calendars.Read');
  });

  it('when the state is tampered with or issued for the other provider, then 400', async () => {
    const url = await authorizeUrl('google', newOrganization().headers, `schedule_id=${randomUUID()}`);
    const state = url.searchParams.get('state') ?? '';
    const [body = '', signature = ''] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), o: randomUUID() })).toString(
      'base64url',
    );
    for (const [provider, badState] of [
      ['google', `${forged}.${signature}`],
      ['outlook', state],
      ['google', 'garbage'],
    ]) {
      const response = await callback(provider ?? '', { code: 'whatever', state: badState ?? '' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('state is invalid or expired') });
    }
  });

  it('when the provider refuses the code, the user declined, or code/state is missing, then 400', async () => {
    const url = await authorizeUrl('google', newOrganization().headers, `schedule_id=${randomUUID()}`);
    const refused = await callback('google', { code: 'not-issued', state: url.searchParams.get('state') ?? '' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'Google refused the authorization code (invalid_grant)',
      code: 'VALIDATION_ERROR',
      details: [{ path: 'code', message: 'Google refused the authorization code (invalid_grant)' }],
    });
    const declined = await callback('google', { error: 'access_denied', state: 'x' });
    expect(declined.statusCode).toBe(400);
    expect(declined.json()).toMatchObject({ error: expect.stringContaining('access_denied') });
    // Validation errors carry `details` here too, like every other VALIDATION_ERROR of the API.
    expect((await callback('google', { state: 'x' })).json()).toMatchObject({ error: 'code is required', details: [{ path: 'code' }] });
    expect((await callback('google', { code: 'x' })).json()).toMatchObject({ error: 'state is required', details: [{ path: 'state' }] });
  });
});
