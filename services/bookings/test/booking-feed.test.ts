import { randomUUID } from 'node:crypto';
import { BOOKING_FEED_PAGE_SIZE, bookingFeedRequest, type BookingFeedItem } from '@app/contracts';
import { neighbourBus } from '@app/service-testing';
import type { Bus } from '@app/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

/** `bookings.booking.feed` as calendar-sync asks it: over NATS, on the service's prefix. */
describe('bookings.booking.feed', () => {
  const suite = bookingsSuite();
  let calendarSync: Bus;
  beforeAll(async () => {
    calendarSync = await neighbourBus(suite.bookings.infra.config);
  });
  afterAll(() => calendarSync?.close());

  const day = futureDay(20);
  const window = { from: day.toISOString(), to: new Date(day.getTime() + 7 * 86_400_000).toISOString() };
  const feed = (request: Omit<z.input<typeof bookingFeedRequest.request>, 'from' | 'to'> & { from?: string; to?: string }) =>
    calendarSync.request(bookingFeedRequest, { ...window, ...request });
  const book = async (organizationId: string, scheduleId: string, minutes: number, extra: Record<string, unknown> = {}) => {
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(scheduleId, interval(day, minutes), extra),
    );
    expect(created.status).toBe(201);
    return String(created.body.data.id);
  };
  const patch = async (organizationId: string, id: string, body: Record<string, unknown>) =>
    expect((await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, body)).status).toBe(200);

  it('when asked for a schedule, then it answers its PENDING and CONFIRMED bookings in the window, by start, named as calendars show them', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const pending = await book(organizationId, scheduleId, 60, { title: 'Intro, call; with "quotes"' });
    const confirmed = await book(organizationId, scheduleId, 30);
    await patch(organizationId, confirmed, { status: 'CONFIRMED' });
    const cancelled = await book(organizationId, scheduleId, 90);
    await patch(organizationId, cancelled, { status: 'CANCELLED' });
    const completed = await book(organizationId, scheduleId, 120);
    await patch(organizationId, completed, { status: 'CONFIRMED' });
    await patch(organizationId, completed, { status: 'COMPLETED' });
    await book(organizationId, newScheduleId(), 150); // another schedule
    await book(organizationId, scheduleId, 8 * 24 * 60); // after the window

    const reply = await feed({ organization_id: organizationId, schedule_id: scheduleId });
    expect(reply.next).toBeNull();
    expect(reply.bookings).toEqual<BookingFeedItem[]>([
      {
        booking_id: confirmed,
        ...interval(day, 30),
        status: 'CONFIRMED',
        summary: 'Booking: Ada Lovelace',
        version: 2,
        updated_at: expect.any(String) as string,
      },
      {
        booking_id: pending,
        ...interval(day, 60),
        status: 'PENDING',
        summary: 'Intro, call; with "quotes"',
        version: 1,
        updated_at: expect.any(String) as string,
      },
    ]);
  });

  it("when the organization is not the schedule's, then it answers no bookings", async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    await book(organizationId, scheduleId, 200);
    expect((await feed({ organization_id: randomUUID(), schedule_id: scheduleId })).bookings).toEqual([]);
    expect((await feed({ organization_id: organizationId, schedule_id: scheduleId })).bookings).toHaveLength(1);
  });

  it('when a booking changes, then its version and updated_at rise', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const id = await book(organizationId, scheduleId, 240);
    const [before] = (await feed({ organization_id: organizationId, schedule_id: scheduleId })).bookings;
    await patch(organizationId, id, interval(day, 250));
    const [after] = (await feed({ organization_id: organizationId, schedule_id: scheduleId })).bookings;
    expect(after).toMatchObject({ booking_id: id, ...interval(day, 250) });
    expect(after?.version).toBeGreaterThan(before?.version ?? Infinity);
    expect(Date.parse(after?.updated_at ?? '')).toBeGreaterThanOrEqual(Date.parse(before?.updated_at ?? ''));
  });

  it('when there are more bookings than a page holds, then pages follow each other by `after`, each booking once', async () => {
    const organizationId = newOrganization();
    const scheduleId = newScheduleId();
    const count = BOOKING_FEED_PAGE_SIZE + 3;
    const ids: string[] = [];
    // Ten at a time, each in its own half hour.
    for (let start = 0; start < count; start += 10) {
      const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) => book(organizationId, scheduleId, (start + i) * 30));
      ids.push(...(await Promise.all(batch)));
    }
    const first = await feed({ organization_id: organizationId, schedule_id: scheduleId });
    expect(first.bookings).toHaveLength(BOOKING_FEED_PAGE_SIZE);
    expect(first.next).toEqual({ start_time: first.bookings.at(-1)?.start_time, booking_id: first.bookings.at(-1)?.booking_id });
    const second = await feed({ organization_id: organizationId, schedule_id: scheduleId, after: first.next });
    expect(second.next).toBeNull();
    expect([...first.bookings, ...second.bookings].map((booking) => booking.booking_id)).toEqual(ids);
  });
});
