// Type-checked in a fresh project that has the packed SDK and no @types/node (test/packed.e2e.test.ts).
import { createClient, createPublicClient, isApiError, type CreatedBooking, type Hold, type PublicSchedule } from '@scheduling-shop/sdk';

const api = createClient({ baseUrl: 'https://api.example.com', apiKey: 'sk_x' });
const site = createPublicClient({ baseUrl: 'https://api.example.com', publishableKey: 'pk_x' });

export async function typed(): Promise<void> {
  const { data } = await api.POST('/api/v1/schedules', { body: { name: 'Consultations', timezone: 'Europe/Berlin' } });
  const id: string = data.data.id;
  // @ts-expect-error a schedule has no such field: the types are the API's, not `any`
  void data.data.no_such_field;
  const key = await api.apiKeys.create({ name: 'Booking page', type: 'publishable', allowed_origins: ['https://shop.example'] });
  const secret: string = key.data.data.key;
  const schedule: PublicSchedule = (await site.schedule(id)).data.data;
  const hold: Hold = (await site.holds.create({ schedule_id: id, start_time: '2030-01-07T09:00:00Z', end_time: '2030-01-07T09:30:00Z' }))
    .data.data;
  const booking: CreatedBooking = (
    await site.bookings.create({
      schedule_id: schedule.id,
      start_time: hold.start_time,
      end_time: hold.end_time,
      hold_id: hold.id,
      attendee: { name: 'Ada', email: 'ada@example.com' },
    })
  ).data.data;
  await site.bookings.cancel(booking.id, booking.client_secret);
  // @ts-expect-error a public client has no raw GET: it calls the public operations only
  void site.GET;
  try {
    await site.slots({ scheduleId: id });
  } catch (error) {
    if (isApiError(error)) console.log(error.code, error.details, secret);
  }
}
