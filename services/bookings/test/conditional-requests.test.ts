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
    {
      // A hold changes once, when it is used (or released, its DELETE; or expires): a booking taking it is its change.
      name: 'a hold',
      has: { get: true, remove: true, change: true },
      async arrange() {
        const organizationId = newOrganization();
        const scheduleId = newScheduleId();
        slot += 1;
        const body = { schedule_id: scheduleId, ...interval(day, slot * 30) };
        const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/holds', body);
        expect(created.status).toBe(201);
        const holdId = String(created.body.data.id);
        const calls = recordRequests(suite.bookings.app, organizationHeaders(organizationId), `/api/v1/holds/${holdId}`);
        return {
          get: calls.get,
          remove: calls.remove,
          async change() {
            const booked = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', {
              ...bookingBody(scheduleId, interval(day, slot * 30)),
              hold_id: holdId,
            });
            expect(booked.status).toBe(201);
          },
          state: calls.data,
        };
      },
    },
    {
      // A series shows its bookings: a change of one of them is a change of the series.
      name: 'a booking series',
      has: { get: true, remove: true, change: true },
      async arrange() {
        const organizationId = newOrganization();
        slot += 1;
        const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/booking-series', {
          ...bookingBody(newScheduleId(), interval(day, slot * 30)),
          timezone: 'UTC',
          recurrence: { frequency: 'daily', count: 2 },
        });
        expect(created.status).toBe(201);
        const bookingId = String((created.body.data.bookings as { id: string }[])[0]?.id);
        const calls = recordRequests(
          suite.bookings.app,
          organizationHeaders(organizationId),
          `/api/v1/booking-series/${created.body.data.id}`,
        );
        return {
          get: calls.get,
          remove: calls.remove,
          async change() {
            const changed = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${bookingId}`, {
              metadata: { changed: true },
            });
            expect(changed.status).toBe(200);
          },
          state: calls.data,
        };
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
