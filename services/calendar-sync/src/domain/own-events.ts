/** How the events this service writes are marked at the provider, so a read or a retry can find them again. */
export const OWN_EVENT_MARKS = {
  googleBookingId: 'booking_id',
  googleScheduleId: 'schedule_id',
  graphBookingId: 'String {6c5e9f0a-8d2b-4b7e-9a41-3f2d1c0b7e55} Name booking_id',
  graphScheduleId: 'String {6c5e9f0a-8d2b-4b7e-9a41-3f2d1c0b7e55} Name schedule_id',
} as const;
