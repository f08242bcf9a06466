import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bookingRecordSchema,
  calendarConnectionSchema,
  createdOrganizationSchema,
  dataEnvelope,
  errorBodySchema,
  eventRecordSchema,
  eventTypeRecordSchema,
  listEnvelope,
  mediaFileSchema,
  productImageSchema,
  productSchema,
  registrationRecordSchema,
  scheduleRecordSchema,
  slotsResponseSchema,
} from '@app/contracts';
import { ADMIN_TOKEN, startE2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';
import { eventually, FakeProviders, png, preparedForTests, startedForTests } from '@app/service-testing';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** A date `days` from today (UTC), YYYY-MM-DD. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** The fields the spec promises in each response (parsing fails if one is missing or has the wrong type). */
const promised = {
  eventType: dataEnvelope(
    eventTypeRecordSchema.pick({ id: true, title: true, slug: true, duration: true, is_active: true, created_at: true }),
  ),
  booking: dataEnvelope(bookingRecordSchema.pick({ id: true, schedule_id: true, status: true, start_time: true, created_at: true })),
  event: dataEnvelope(eventRecordSchema.pick({ id: true, title: true, status: true, created_at: true })),
  product: dataEnvelope(productSchema.pick({ id: true, name: true, slug: true, price: true, featured_image_id: true, status: true })),
};
const bookingUpdated = dataEnvelope(bookingRecordSchema.pick({ id: true, status: true, updated_at: true }));
const bookingCancelled = dataEnvelope(bookingRecordSchema.pick({ id: true, status: true, cancelled: true }));

describe('a full day of use, through the gateway only', () => {
  const providers = startedForTests(async () => {
    const providers = new FakeProviders();
    await providers.start();
    return providers;
  });
  const stack = startedForTests(() => startE2eStack({ ...providers.env(), CALENDAR_SYNC_POLL_MS: '200' }), { timeout: 120_000 });
  const organization = preparedForTests(() => createOrganization(stack, 'Studio', 'Europe/Berlin'));
  let scheduleId: string;
  const call = (method: string, path: string, body?: unknown) => stack.call(method, path, { key: organization.key, body });

  const slotsOf = async (date: string) => {
    const response = await stack.call('GET', `/api/bookings/slots?scheduleId=${scheduleId}&startDate=${date}&endDate=${date}`);
    expect(response.status).toBe(200);
    return slotsResponseSchema.parse(response.body).days.flatMap((d) => d.slots);
  };

  it('when a schedule is created, then its slots are offered publicly', async () => {
    const response = await call('POST', '/api/v1/schedules', {
      name: 'Consultations',
      timezone: 'UTC',
      slot_duration: 30,
      availability: WEEK.map((d) => ({
        day: d,
        start: '08:00',
        end: '18:00',
      })),
    });
    expect(response.status).toBe(201);
    const schedule = dataEnvelope(scheduleRecordSchema).parse(response.body).data;
    scheduleId = schedule.id;
    expect(schedule).toMatchObject({ timezone: 'UTC', slot_duration: 30 });
    const slots = await slotsOf(day(2));
    expect(slots).toHaveLength(20);
    expect(slots[0]).toMatchObject({
      start: `${day(2)}T08:00:00.000Z`,
      end: `${day(2)}T08:30:00.000Z`,
      status: 'available',
      label: '08:00',
    });
  });

  it('when a booking goes through its life, then slots follow it and forbidden moves are refused', async () => {
    const type = await call('POST', '/api/v1/event-types', { title: 'Intro call', duration: 30 });
    expect(type.status).toBe(201);
    const eventType = promised.eventType.parse(type.body).data;
    expect(eventType).toMatchObject({ slug: 'intro-call', duration: 30, is_active: true });

    const slot = { start_time: `${day(2)}T09:00:00.000Z`, end_time: `${day(2)}T09:30:00.000Z` };
    const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };
    const created = await call('POST', '/api/v1/bookings', { schedule_id: scheduleId, event_type_id: eventType.id, ...slot, attendee });
    expect(created.status).toBe(201);
    const booking = promised.booking.parse(created.body).data;
    expect(booking.status).toBe('PENDING');

    const taken = await call('POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      ...slot,
      attendee: { name: 'Bob', email: 'bob@example.com' },
    });
    expect(taken.status).toBe(409);
    expect(errorBodySchema.parse(taken.body)).toEqual({ error: 'This time slot is already booked', code: 'SLOT_TAKEN' });
    await eventually(async () => ((await slotsOf(day(2))).some((s) => s.start === slot.start_time) ? undefined : true));

    const confirmed = await call('PATCH', `/api/v1/bookings/${booking.id}`, { status: 'CONFIRMED' });
    expect(bookingUpdated.parse(confirmed.body).data).toMatchObject({ status: 'CONFIRMED', updated_at: expect.any(String) });
    const cancelled = await call('DELETE', `/api/v1/bookings/${booking.id}`);
    expect(bookingCancelled.parse(cancelled.body).data).toMatchObject({ id: booking.id, status: 'CANCELLED', cancelled: true });
    const back = await call('PATCH', `/api/v1/bookings/${booking.id}`, { status: 'CONFIRMED' });
    expect(back.status).toBe(400);
    expect(errorBodySchema.parse(back.body).error).toBe('Cannot transition from CANCELLED to CONFIRMED');
    await eventually(async () => ((await slotsOf(day(2))).some((s) => s.start === slot.start_time) ? true : undefined));

    const again = await call('POST', '/api/v1/bookings', { schedule_id: scheduleId, ...slot, attendee });
    expect(again.status).toBe(201);
    const rebooked = promised.booking.parse(again.body).data;
    for (const status of ['CONFIRMED', 'COMPLETED']) {
      expect((await call('PATCH', `/api/v1/bookings/${rebooked.id}`, { status })).status).toBe(200);
    }
    const full = bookingRecordSchema.parse(
      dataEnvelope(z.unknown()).parse((await call('GET', `/api/v1/bookings/${rebooked.id}`)).body).data,
    );
    expect(full).toMatchObject({ status: 'COMPLETED', attendee_email: 'ada@example.com', attendee: { name: 'Ada Lovelace' } });
    const list = listEnvelope(
      bookingRecordSchema.pick({
        id: true,
        schedule_id: true,
        start_time: true,
        end_time: true,
        status: true,
        title: true,
        attendee_name: true,
        attendee_email: true,
        created_at: true,
      }),
    ).parse((await call('GET', `/api/v1/bookings?schedule_id=${scheduleId}&attendee_email=ADA@`)).body);
    expect(list.meta).toMatchObject({ total: 2, limit: 50, offset: 0, hasMore: false });
  });

  it('when a connected Google calendar is busy, then its time is blocked for slots and bookings', async () => {
    const account = providers.account();
    account.google.set('primary', [{ start: `${day(3)}T10:00:00Z`, end: `${day(3)}T11:00:00Z` }]);
    const created = await call('POST', '/api/v1/calendar-connections', {
      provider: 'google',
      schedule_id: scheduleId,
      credentials: account.credentials(),
    });
    expect(created.status).toBe(201);
    const connection = dataEnvelope(calendarConnectionSchema).parse(created.body).data;
    expect(JSON.stringify(created.body)).not.toContain(account.accessToken);

    await eventually(async () => ((await slotsOf(day(3))).some((s) => s.start === `${day(3)}T10:00:00.000Z`) ? undefined : true), 20_000);
    const blocked = await call('POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      start_time: `${day(3)}T10:30:00Z`,
      end_time: `${day(3)}T11:00:00Z`,
      attendee: { name: 'Cy', email: 'cy@example.com' },
    });
    expect(blocked.status).toBe(409);
    expect(errorBodySchema.parse(blocked.body).code).toBe('SLOT_UNAVAILABLE');
    const status = dataEnvelope(calendarConnectionSchema).parse(
      (await call('GET', `/api/v1/calendar-connections/${connection.id}`)).body,
    ).data;
    expect(status.status).toBe('active');

    expect((await call('DELETE', `/api/v1/calendar-connections/${connection.id}`)).status).toBe(200);
    await eventually(async () => ((await slotsOf(day(3))).some((s) => s.start === `${day(3)}T10:00:00.000Z`) ? true : undefined), 20_000);
  });

  it('when the busy calendar frees up, then its time is bookable again; when its refresh token is revoked, then the last busy time keeps blocking', async () => {
    const hours = {
      name: 'Calendar-bound',
      timezone: 'UTC',
      slot_duration: 60,
      availability: WEEK.map((d) => ({ day: d, start: '09:00', end: '17:00' })),
    };
    const ownSchedule = dataEnvelope(scheduleRecordSchema).parse((await call('POST', '/api/v1/schedules', hours)).body).data.id;
    const at = (hour: number) => `${day(4)}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const offered = async (hour: number) => {
      const response = await stack.call('GET', `/api/bookings/slots?scheduleId=${ownSchedule}&startDate=${day(4)}&endDate=${day(4)}`);
      return slotsResponseSchema.parse(response.body).days.some((d) => d.slots.some((s) => s.start === at(hour)));
    };
    const book = (hour: number) =>
      call('POST', '/api/v1/bookings', {
        schedule_id: ownSchedule,
        start_time: at(hour),
        end_time: at(hour + 1),
        attendee: { name: 'Ada', email: 'ada@example.com' },
      });
    const syncNow = async (id: string) => expect((await call('POST', `/api/v1/calendar-connections/${id}/sync`)).status).toBe(202);

    // Busy 10:00-11:00; the access token expires within the refresh margin, so the first sync refreshes it.
    const account = providers.account();
    account.google.set('primary', [{ start: at(10), end: at(11) }]);
    const created = await call('POST', '/api/v1/calendar-connections', {
      provider: 'google',
      schedule_id: ownSchedule,
      credentials: account.credentials(60_000),
    });
    const connection = dataEnvelope(calendarConnectionSchema).parse(created.body).data;
    await eventually(async () => ((await offered(10)) ? undefined : true), 20_000);
    expect(errorBodySchema.parse((await book(10)).body).code).toBe('SLOT_UNAVAILABLE');

    // Free again: after a sync the slot is back and can be booked.
    account.google.set('primary', []);
    await syncNow(connection.id);
    await eventually(async () => ((await offered(10)) ? true : undefined), 20_000);
    expect((await book(10)).status).toBe(201);

    // Busy at 13:00, then the refresh token is revoked: reauth_required, and the last known window keeps blocking.
    account.google.set('primary', [{ start: at(13), end: at(14) }]);
    await syncNow(connection.id);
    await eventually(async () => ((await offered(13)) ? undefined : true), 20_000);
    providers.revokeRefreshTokens(account);
    providers.expireAccessToken(account);
    await syncNow(connection.id);
    const status = async () =>
      dataEnvelope(calendarConnectionSchema).parse((await call('GET', `/api/v1/calendar-connections/${connection.id}`)).body).data.status;
    await eventually(async () => ((await status()) === 'reauth_required' ? true : undefined), 20_000);
    expect(await offered(13)).toBe(false);
    expect((await book(13)).status).toBe(409);

    // Disconnecting removes its windows at once.
    expect((await call('DELETE', `/api/v1/calendar-connections/${connection.id}`)).status).toBe(200);
    await eventually(async () => ((await offered(13)) ? true : undefined), 20_000);
  });

  it('when an event fills up, then registrations stop at its capacity and counts show it', async () => {
    const created = await call('POST', '/api/v1/events', {
      title: 'Open studio',
      start_date: day(10),
      start_time: '18:00',
      end_time: '20:00',
      timezone: 'America/New_York',
      cost: 12.5,
      slots: 2,
      status: 'published',
    });
    expect(created.status).toBe(201);
    const event = promised.event.parse(created.body).data;
    const register = (name: string) => call('POST', `/api/v1/events/${event.id}/registrations`, { name, email: `${name}@example.com` });
    const [first, second] = [await register('ann'), await register('ben')];
    expect([first.status, second.status]).toEqual([201, 201]);
    dataEnvelope(registrationRecordSchema).parse(first.body);
    const third = await register('cat');
    expect(third.status).toBe(409);
    expect(errorBodySchema.parse(third.body).code).toBe('EVENT_FULL');

    const list = listEnvelope(eventRecordSchema).parse(
      (await call('GET', `/api/v1/events?include_counts=true&start_date=${day(10)}&end_date=${day(10)}`)).body,
    );
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: event.id, cost: 12.5, counts: { registrations: 2, remaining: 0 } });
    expect(list.data[0]?.starts_at).toMatch(/T2[23]:00:00\.000Z$/);
  });

  it('when a product gets an uploaded image, then the gallery features it and the URL serves the bytes', async () => {
    const bytes = png(8, 6);
    const form = new FormData();
    form.append('alt_text', 'A gradient');
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'gradient.png');
    const uploaded = await fetch(`${stack.gatewayUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.key}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const media = dataEnvelope(mediaFileSchema).parse(await uploaded.json()).data;
    expect(media).toMatchObject({ mime_type: 'image/png', width: 8, height: 6, size: bytes.length });

    const product = await call('POST', '/api/v1/products', { name: 'Poster Ünïque', price: 19.99 });
    expect(product.status).toBe(201);
    const { id, slug, price } = promised.product.parse(product.body).data;
    expect({ slug, price }).toEqual({ slug: 'poster-unique', price: 19.99 });

    const attached = await call('POST', `/api/v1/products/${id}/images`, { media_file_id: media.id, is_featured: true });
    expect(attached.status).toBe(201);
    expect(dataEnvelope(productImageSchema).parse(attached.body).data).toMatchObject({ product_id: id, order_index: 0, is_featured: true });
    const fetched = dataEnvelope(productSchema).parse((await call('GET', `/api/v1/products/${id}`)).body).data;
    expect(fetched.featured_image_id).toBe(media.id);

    // The URL the API gave is the gateway's own (startStack's default PUBLIC_BASE_URL), served there without a key.
    expect(media.url.startsWith(`${stack.gatewayUrl}/media/`)).toBe(true);
    const served = await fetch(media.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), bytes)).toBe(0);

    // A large file that is not an image is refused by its first bytes, and the answer still arrives whole through the gateway.
    const notAnImage = new FormData();
    notAnImage.append('file', new Blob([new Uint8Array(5_000_000).fill(7)], { type: 'image/png' }), 'fake.png');
    const refused = await fetch(`${stack.gatewayUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.key}` },
      body: notAnImage,
    });
    expect(refused.status).toBe(415);
    expect(errorBodySchema.parse(await refused.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const missing = await call('POST', `/api/v1/products/${id}/images`, { media_file_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(errorBodySchema.parse(missing.body).error).toBe('Media file not found');
  });

  it('when another organization asks for these records, then they do not exist for it', async () => {
    const other = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Other' },
    });
    const otherKey = dataEnvelope(createdOrganizationSchema).parse(other.body).data.api_key;
    const schedule = await stack.call('GET', `/api/v1/schedules/${scheduleId}`, { key: otherKey });
    expect(schedule.status).toBe(404);
    const bookings = listEnvelope(z.unknown()).parse((await stack.call('GET', '/api/v1/bookings', { key: otherKey })).body);
    expect(bookings.meta.total).toBe(0);
  });
});
