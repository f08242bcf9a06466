/** How a booking is named in a calendar (API.md, calendar write-back and ICS feeds): its title, else its attendee's name. */
export function bookingSummary(booking: { title: string | null; attendeeName: string }): string {
  return booking.title ? booking.title : `Booking: ${booking.attendeeName}`;
}
