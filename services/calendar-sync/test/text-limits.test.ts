import { describe, expect, it } from 'vitest';
import { calendarSyncSuite, connectionBody, newOrganization } from './support/harness.js';

const suite = calendarSyncSuite();
const { fake } = suite;

const body = (overrides: Record<string, unknown> = {}) => connectionBody(fake, overrides);

describe('POST /api/v1/calendar-connections (text limits)', () => {
  it.each([
    ['a lone surrogate', ['primary', 'team\ud800@example.com'], 'calendar_ids.1 must not contain lone surrogates (invalid Unicode)'],
    ['a bidi control', ['\u202etneilc'], 'calendar_ids.0 must not contain bidirectional control characters'],
  ])('when a calendar id holds %s, then 400 naming it (a lone surrogate was a 500), nothing created', async (_case, ids, message) => {
    const org = newOrganization();
    const payload = body({ calendar_ids: ids });
    const response = await suite.running.app.inject({ method: 'POST', url: '/api/v1/calendar-connections', headers: org.headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
    const list = await suite.running.app.inject({ url: '/api/v1/calendar-connections', headers: org.headers });
    expect(list.json().meta.total).toBe(0);
  });

  it('when the access token holds a lone surrogate, then 400 naming credentials.access_token', async () => {
    const payload = body();
    payload.credentials = { ...payload.credentials, access_token: 'ya29.\udc00' };
    const response = await suite.running.app.inject({
      method: 'POST',
      url: '/api/v1/calendar-connections',
      headers: newOrganization().headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('credentials.access_token must not contain lone surrogates (invalid Unicode)');
  });
});
