import { describe, expect, it } from 'vitest';
import { describeConditionalRequests, organizationHeaders, recordRequests } from '@app/service-testing';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

describe('bookings', () => {
  const suite = bookingsSuite();
  const day = futureDay(21);
  let slot = 0;

  /** A PENDING booking of an organization of its own, at its own time of the day. */
  async function newBooking(organizationId = newOrganization()) {
    slot += 1;
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(newScheduleId(), interval(day, slot * 30)),
    );
    expect(created.status).toBe(201);
    return { organizationId, id: String(created.body.data.id) };
  }

  describeConditionalRequests([
    {
      name: 'a booking',
      has: { get: true, patch: true, remove: true },
      async arrange() {
        const { organizationId, id } = await newBooking();
        const calls = recordRequests(suite.bookings.app, organizationHeaders(organizationId), `/api/v1/bookings/${id}`);
        return { ...calls, patch: (headers, n) => calls.patch(headers, { metadata: { n } }), state: calls.data };
      },
    },
  ]);

  it("when If-Match names another organization's booking, then it is a 404, never a 412 that would tell it exists", async () => {
    const { organizationId, id } = await newBooking();
    const etag = String((await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${id}`)).headers.etag);
    const stranger = newOrganization();
    for (const method of ['PATCH', 'DELETE'] as const) {
      const reply = await call(
        suite.bookings,
        stranger,
        method,
        `/api/v1/bookings/${id}`,
        method === 'PATCH' ? { title: 'x' } : undefined,
        {
          'if-match': etag,
        },
      );
      expect({ method, status: reply.status, code: reply.body.code }).toEqual({ method, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('when a status change, a reschedule and a cancel each carry the ETag the one before answered, then all apply in turn', async () => {
    const { organizationId, id } = await newBooking();
    const url = `/api/v1/bookings/${id}`;
    let etag = String((await call(suite.bookings, organizationId, 'GET', url)).headers.etag);
    slot += 1;
    for (const change of [{ status: 'CONFIRMED' }, interval(day, slot * 30)]) {
      const reply = await call(suite.bookings, organizationId, 'PATCH', url, change, { 'if-match': etag });
      expect(reply.status).toBe(200);
      etag = String(reply.headers.etag);
    }
    const cancelled = await call(suite.bookings, organizationId, 'DELETE', url, undefined, { 'if-match': etag });
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', cancelled: true });
  });
});
