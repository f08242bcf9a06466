import { describe, expect, it } from 'vitest';
import { ORGANIZATION_HEADER } from '@app/contracts';
import type { Echo } from './support/echo-upstreams.js';
import { createKey } from './support/api-keys.js';
import { createOrganization, gatewayBehindEchoes } from './support/harness.js';

const SCHEDULE = '8a3f9c2e-1b4d-4e5f-9a6b-7c8d9e0f1a2b';
const FEED = `/api/v1/schedules/${SCHEDULE}/ics-feed`;
const FEED_URL = `/ics/${'Ab_-'.repeat(10)}xyz.ics`;

/** The routes of ICS feeds: the keyed management path under scheduling's prefix, and the public feed URL. */
describe('ICS feed routes at the gateway', () => {
  const fixture = gatewayBehindEchoes();
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key?: string, headers: Record<string, string> = {}) =>
    fixture.gateway.app.inject({ method, url, headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) } });

  it("when a schedule's ics-feed is called with a key, then calendar-sync answers it, and the schedule itself stays scheduling's", async () => {
    const org = await createOrganization(fixture.gateway);
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await call(method, FEED, org.api_key);
      expect(response.statusCode, method).toBe(200);
      expect(response.json()).toMatchObject({ service: 'calendar-sync', method, url: FEED });
      expect((response.json() as Echo).headers[ORGANIZATION_HEADER]).toBe(org.id);
    }
    for (const url of [`/api/v1/schedules/${SCHEDULE}`, '/api/v1/schedules', `/api/v1/schedules/${SCHEDULE}/ics-feeds`]) {
      expect((await call('GET', url, org.api_key)).json(), url).toMatchObject({ service: 'scheduling', url });
    }
  });

  it('when ics-feed is called without a key, then 401 and nothing is proxied', async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await call(method, FEED);
      expect(response.statusCode, method).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('when a feed URL is read without a key, then calendar-sync serves it with no organization, whatever the client claims', async () => {
    const response = await call('GET', FEED_URL, undefined, { [ORGANIZATION_HEADER]: SCHEDULE });
    expect(response.statusCode).toBe(200);
    const echo = response.json() as Echo;
    expect(echo).toMatchObject({ service: 'calendar-sync', url: FEED_URL });
    expect(echo.headers[ORGANIZATION_HEADER]).toBeUndefined();
    // Public, but a key that is sent is still checked.
    expect((await call('GET', FEED_URL, 'sk_unknownunknownunknownunknown123')).statusCode).toBe(401);
  });

  it('when a publishable key, or a restricted key without calendar_connections:write, manages a feed, then 403', async () => {
    const org = await createOrganization(fixture.gateway);
    const publishable = await createKey(fixture.gateway, org.api_key, { name: 'shop', type: 'publishable', allowed_origins: ['*'] });
    const readOnly = await createKey(fixture.gateway, org.api_key, {
      name: 'r',
      type: 'restricted',
      scopes: ['calendar_connections:read', 'schedules:write'],
    });
    const writer = await createKey(fixture.gateway, org.api_key, { name: 'w', type: 'restricted', scopes: ['calendar_connections:write'] });
    for (const method of ['POST', 'DELETE'] as const) {
      const byPublishable = await call(method, FEED, publishable.key);
      expect(byPublishable.statusCode, method).toBe(403);
      expect(byPublishable.json()).toEqual({ error: 'Publishable keys cannot call this operation', code: 'FORBIDDEN' });
      const byReader = await call(method, FEED, readOnly.key);
      expect(byReader.statusCode, method).toBe(403);
      expect(byReader.json()).toEqual({ error: 'This key lacks the calendar_connections:write scope', code: 'FORBIDDEN' });
      expect((await call(method, FEED, writer.key)).json()).toMatchObject({ service: 'calendar-sync', url: FEED });
    }
  });
});
