// Run with node in the fresh project: the packed test kit checks the gateway is up, the packed SDK books through it.
// With PUBLISHABLE=1 it books as a browser would: a publishable key, a hold, client_secret.
import { isReachable } from '@scheduling-shop/testkit';
import { createClient, createPublicClient } from '@scheduling-shop/sdk';

const base = new URL(process.env.API);
if (!(await isReachable(base.hostname, Number(base.port), 2000))) throw new Error(`the gateway is not reachable at ${base}`);
const api = createClient({ baseUrl: process.env.API, apiKey: process.env.KEY });
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const availability = WEEK.map((day) => ({ day, start: '00:00', end: '24:00' }));
const publishable = process.env.PUBLISHABLE === '1';
const { data: schedule } = await api.POST('/api/v1/schedules', {
  body: { name: 'Packed', timezone: 'UTC', slot_duration: 30, availability, ...(publishable ? { public_booking: true } : {}) },
});
const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };
const query = { scheduleId: schedule.data.id };

if (!publishable) {
  const { data: slots } = await api.GET('/api/bookings/slots', { params: { query } });
  const slot = slots.days.flatMap((day) => day.slots)[0];
  const { data: booking } = await api.POST('/api/v1/bookings', {
    body: { schedule_id: schedule.data.id, start_time: slot.start, end_time: slot.end, attendee },
  });
  console.log(JSON.stringify({ booking: booking.data }));
} else {
  const { data: key } = await api.apiKeys.create({ name: 'Packed page', type: 'publishable', allowed_origins: ['*'] });
  const site = createPublicClient({ baseUrl: process.env.API, publishableKey: key.data.key });
  const { data: slots } = await site.slots(query);
  const slot = slots.days.flatMap((day) => day.slots)[0];
  const { data: hold } = await site.holds.create({ schedule_id: schedule.data.id, start_time: slot.start, end_time: slot.end });
  const { data: booking } = await site.bookings.create({
    schedule_id: schedule.data.id,
    start_time: slot.start,
    end_time: slot.end,
    hold_id: hold.data.id,
    attendee,
  });
  const { data: read } = await site.bookings.get(booking.data.id, booking.data.client_secret);
  await site.bookings.cancel(booking.data.id, booking.data.client_secret);
  const { data: after } = await api.GET('/api/v1/bookings/{id}', { params: { path: { id: booking.data.id } } });
  console.log(JSON.stringify({ hold: hold.data, booking: read.data, after: after.data }));
}
