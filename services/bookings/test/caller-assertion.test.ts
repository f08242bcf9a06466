import { describe, expect, it } from 'vitest';
import { callerAssertion, organizationHeaders, testAssertionSecret } from '@app/service-testing';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

const UNAUTHORIZED = { error: 'Missing or invalid API key', code: 'UNAUTHORIZED' };

/** Reaching the bookings port is not enough to act as an organization: only an assertion the gateway minted for bookings counts. */
describe('POST /api/v1/bookings reached directly (without the gateway)', () => {
  // Scheduling and events faked as open neighbours: a request that gets past the assertion would be booked.
  const suite = bookingsSuite();
  const day = futureDay(11);

  async function attempt(headers: (organizationId: string) => Record<string, string>) {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const response = await suite.bookings.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { ...headers(organizationId), 'content-type': 'application/json' },
      payload: bookingBody(scheduleId, interval(day, 9 * 60)),
    });
    const listed = await call<unknown[]>(suite.bookings, organizationId, 'GET', `/api/v1/bookings?schedule_id=${scheduleId}`);
    return { response, listed: listed.body.data };
  }

  it.each([
    ['only x-organization-id of another organization', (org: string) => ({ 'x-organization-id': org })],
    [
      'an expired assertion',
      (org: string) => ({ 'x-caller-assertion': callerAssertion({ organizationId: org }, { expiresInSeconds: -30 }) }),
    ],
    [
      'a tampered assertion',
      (org: string) => ({ 'x-caller-assertion': callerAssertion({ organizationId: newOrganization() }, { tamperedOrganizationId: org }) }),
    ],
    [
      'an assertion of an unknown kid',
      (org: string) => ({ 'x-caller-assertion': callerAssertion({ organizationId: org }, { keyId: 'unknown-kid' }) }),
    ],
    [
      'an assertion minted with a foreign secret',
      (org: string) => ({ 'x-caller-assertion': callerAssertion({ organizationId: org }, { foreignKey: true }) }),
    ],
    [
      'an assertion the gateway minted for catalog (replayed at bookings)',
      (org: string) => ({ 'x-caller-assertion': callerAssertion({ organizationId: org }, { audience: 'catalog' }) }),
    ],
    [
      "an assertion for bookings minted with catalog's secret (a stolen key of another service)",
      (org: string) => ({
        'x-caller-assertion': callerAssertion({ organizationId: org }, { audience: 'bookings', secret: testAssertionSecret('catalog') }),
      }),
    ],
  ])('when it comes with %s, then 401 and nothing is created', async (_case, headers) => {
    const { response, listed } = await attempt(headers);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
    expect(listed).toEqual([]);
  });

  it('when it comes with a valid assertion, then the booking is created in the asserted organization', async () => {
    const { response, listed } = await attempt((org) => organizationHeaders(org));

    expect(response.statusCode).toBe(201);
    expect(listed).toHaveLength(1);
  });
});
