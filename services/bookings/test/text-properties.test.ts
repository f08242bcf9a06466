import { describe, it } from 'vitest';
import { createBookingBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated, organizationClient } from '@app/service-testing';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite } from './support/harness.js';

describe('POST /api/v1/bookings (any text)', () => {
  const suite = bookingsSuite();

  it.each([
    [['attendee', 'name']],
    [['attendee', 'email']],
    [['attendee', 'phone']],
    [['attendee', 'notes']],
    [['title']],
    [['location']],
    [['metadata', 'note']],
    [['metadata', 'nested', 0]],
  ])('when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500', async (path) => {
    const client = organizationClient(suite.bookings.app);
    await expectTextStoredAsValidated({
      schema: createBookingBodySchema,
      // A schedule of its own per run: no two runs' bookings overlap.
      body: () => bookingBody(newScheduleId(), interval(futureDay(9), 9 * 60), { metadata: { note: 'n', nested: ['x'] } }),
      path,
      create: (body) => client.post('/api/v1/bookings', body),
      read: (created) => client.get(`/api/v1/bookings/${String((created.body.data as { id: string }).id)}`),
    });
  });
});
