import { describe, expect, it } from 'vitest';
import { bookingsOn, futureDay } from './support/fixtures.js';
import { bookingRoutes, bookingsSuite, newOrganization, tally } from './support/harness.js';

describe('PATCH and DELETE /api/v1/bookings/{id}', () => {
  const suite = bookingsSuite();
  const { get, patch, remove } = bookingRoutes(suite);
  /** A booking of a fresh organization in a status, each at its own time of the day. */
  const bookingIn = bookingsOn(suite, futureDay(15));

  it.each([
    ['PENDING', 'CONFIRMED'],
    ['PENDING', 'CANCELLED'],
    ['CONFIRMED', 'COMPLETED'],
    ['CONFIRMED', 'CANCELLED'],
    ['CONFIRMED', 'NO_SHOW'],
  ] as const)('when PATCH moves %s to %s (a row of the table), then it is applied and updated_at returned', async (from, to) => {
    const { organizationId, id, created } = await bookingIn(from);
    const reply = await patch(organizationId, id, { status: to });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id, status: to });
    expect(Date.parse(String(reply.body.data.updated_at))).toBeGreaterThanOrEqual(Date.parse(String(created.created_at)));
    expect((await get(organizationId, id)).body.data).toMatchObject({ status: to, cancelled: to === 'CANCELLED' });
  });

  it.each([
    ['CANCELLED', 'CONFIRMED'],
    ['CANCELLED', 'PENDING'],
    ['COMPLETED', 'CANCELLED'],
    ['COMPLETED', 'NO_SHOW'],
    ['NO_SHOW', 'CONFIRMED'],
    ['PENDING', 'COMPLETED'],
    ['PENDING', 'NO_SHOW'],
    ['PENDING', 'PENDING'],
    ['CONFIRMED', 'PENDING'],
    ['CONFIRMED', 'CONFIRMED'],
  ] as const)('when PATCH moves %s to %s (not in the table), then it is a 400 naming both states', async (from, to) => {
    const { organizationId, id } = await bookingIn(from);
    const reply = await patch(organizationId, id, { status: to });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: `Cannot transition from ${from} to ${to}`, code: 'INVALID_TRANSITION' });
    expect((await get(organizationId, id)).body.data.status).toBe(from);
  });

  it.each(['PENDING', 'CONFIRMED'] as const)('when a %s booking is deleted, then it is cancelled softly', async (from) => {
    const { organizationId, id } = await bookingIn(from);
    const reply = await remove(organizationId, id);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id, status: 'CANCELLED', cancelled: true });
    expect((await get(organizationId, id)).body.data).toMatchObject({ status: 'CANCELLED', cancelled: true });
  });

  it.each(['CANCELLED', 'COMPLETED', 'NO_SHOW'] as const)(
    'when a %s booking is deleted, then it is a 400 INVALID_TRANSITION',
    async (from) => {
      const { organizationId, id } = await bookingIn(from);
      const reply = await remove(organizationId, id);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: `Cannot transition from ${from} to CANCELLED`, code: 'INVALID_TRANSITION' });
    },
  );

  it('when another organization patches or deletes the booking, then it is a 404 and nothing changes', async () => {
    const { organizationId, id } = await bookingIn();
    const stranger = newOrganization();
    expect((await patch(stranger, id, { status: 'CONFIRMED' })).status).toBe(404);
    expect((await remove(stranger, id)).status).toBe(404);
    expect((await get(organizationId, id)).body.data.status).toBe('PENDING');
  });

  it('when metadata is patched, then it replaces the old metadata; details change and null clears them', async () => {
    const { organizationId, id } = await bookingIn();
    await patch(organizationId, id, { metadata: { a: 1, b: 2 }, title: 'First', location: 'Desk' });
    const reply = await patch(organizationId, id, { metadata: { c: 3 }, location_type: 'phone', location: null });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      metadata: { c: 3 },
      title: 'First',
      location: null,
      location_type: 'phone',
      status: 'PENDING',
    });
  });

  it('when two PATCHes race on one booking, then one wins and the other sees the new state', async () => {
    const { organizationId, id } = await bookingIn();
    const replies = await Promise.all(Array.from({ length: 10 }, () => patch(organizationId, id, { status: 'CONFIRMED' })));
    expect(tally(replies)).toEqual({ '200': 1, '400 INVALID_TRANSITION': 9 });
    for (const reply of replies.filter((r) => r.status === 400))
      expect(reply.body).toEqual({ error: 'Cannot transition from CONFIRMED to CONFIRMED', code: 'INVALID_TRANSITION' });
  });

  it('when a cancel and a confirmation race, then the outcome is one of the two serial orders', async () => {
    const { organizationId, id } = await bookingIn();
    const [cancel, confirm] = await Promise.all([remove(organizationId, id), patch(organizationId, id, { status: 'CONFIRMED' })]);
    const final = (await get(organizationId, id)).body.data.status;
    expect(final).toBe('CANCELLED');
    expect(cancel?.status).toBe(200);
    // Confirmed first (then cancelled from CONFIRMED), or refused because the cancel came first.
    if (confirm?.status === 400) expect(confirm.body.error).toBe('Cannot transition from CANCELLED to CONFIRMED');
    else expect(confirm?.status).toBe(200);
  });
});
