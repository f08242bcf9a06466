import { createClient } from '@scheduling-shop/sdk';

const api = createClient({ baseUrl: process.env.API, apiKey: process.env.KEY });
const { data: schedule } = await api.POST('/api/v1/schedules', {
  body: { name: 'Consultations', timezone: 'Europe/Berlin', slot_duration: 30 },
});
const query = { scheduleId: schedule.data.id, startDate: '2030-01-08', endDate: '2030-01-08' };
const { data: slots } = await api.GET('/api/bookings/slots', { params: { query } });
const slot = slots.days[0].slots[0];
const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };
const { data: booking } = await api.POST('/api/v1/bookings', {
  body: { schedule_id: schedule.data.id, start_time: slot.start, end_time: slot.end, attendee },
});
console.log(`booked ${booking.data.start_time} (${booking.data.status}), id ${booking.data.id}`);
