import { describe } from 'vitest';
import { describeCursorWalkUnderInserts, describeListPaging, type Listed, type OrderedListCaller } from '@app/service-testing';
import { bookingBody, futureDay, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

const MINUTE = 60_000;

describe('GET /api/v1/bookings by cursor and updated_since', () => {
  const suite = bookingsSuite();
  const start = futureDay(20).getTime();

  /** An organization's bookings, each on a schedule of its own (so that any two may share a time), an hour apart. */
  function caller(): OrderedListCaller {
    const organizationId = newOrganization();
    let made = 0;
    const book = async (at: number): Promise<string> => {
      const times = { start_time: new Date(at).toISOString(), end_time: new Date(at + 30 * MINUTE).toISOString() };
      const reply = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(newScheduleId(), times));
      if (reply.status !== 201) throw new Error(`booking not created: ${reply.status} ${JSON.stringify(reply.body)}`);
      return String(reply.body.data.id);
    };
    return {
      list: async (query) => call(suite.bookings, organizationId, 'GET', `/api/v1/bookings?${query}`),
      create: () => book(start + (made += 1) * 60 * MINUTE),
      update: async (id) => {
        const reply = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { status: 'CONFIRMED' });
        if (reply.status !== 200) throw new Error(`booking not changed: ${reply.status}`);
      },
      // A minute before or after the listed booking: between it and its neighbours, which are an hour away.
      insertNear: (record: Listed, side) => book(Date.parse(String(record.start_time)) + (side === 'before' ? -MINUTE : MINUTE)),
    };
  }

  const list = { name: 'GET /api/v1/bookings', arrange: async () => caller(), otherFilter: 'status=CONFIRMED' };
  describeListPaging([list]);
  describeCursorWalkUnderInserts([list]);
});
