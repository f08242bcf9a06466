import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { answerAsOpenNeighbours, bookingsSuite, call, newOrganization } from './support/harness.js';

describe('GET /api/v1/bookings/{id}', () => {
  const suite = bookingsSuite();

  it('when the booking exists, then every field of API.md is returned, its timezone the one scheduling gave', async () => {
    await answerAsOpenNeighbours(suite.neighbours, 'Europe/Berlin');
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const eventTypeId = randomUUID();
    const times = interval(futureDay(5), 9 * 60);
    // Every optional field, read back as sent.
    const given = {
      event_type_id: eventTypeId,
      title: 'Kick-off',
      location: 'Room 4',
      location_type: 'in_person',
      metadata: { source: 'web', tags: ['a'] },
      attendee: {
        name: 'Grace Hopper',
        email: 'Grace@Example.com',
        phone: '+1 555 0100',
        timezone: 'America/New_York',
        notes: 'Bring slides',
      },
    };
    const created = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', { ...bookingBody(scheduleId, times), ...given });
    const id = String(created.body.data.id);
    const reply = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      ...given,
      id,
      schedule_id: scheduleId,
      start_time: times.start_time,
      end_time: times.end_time,
      status: 'PENDING',
      timezone: 'Europe/Berlin',
      attendee_name: 'Grace Hopper',
      attendee_email: 'Grace@Example.com',
      cancelled: false,
      seats: 1,
      series_id: null,
      calendar_event: null,
      created_at: created.body.data.created_at,
      updated_at: created.body.data.created_at,
    });
  });

  it("when the booking is unknown or another organization's, then it is a 404", async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(scheduleId, interval(futureDay(5), 600)),
    );
    const stranger = newOrganization();
    for (const id of [String(created.body.data.id), randomUUID()]) {
      const reply = await call(suite.bookings, stranger, 'GET', `/api/v1/bookings/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'Booking not found', code: 'NOT_FOUND' });
    }
    const listed = await call(suite.bookings, stranger, 'GET', '/api/v1/bookings');
    expect(listed.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, hasMore: false, next_cursor: null } });
  });
});
