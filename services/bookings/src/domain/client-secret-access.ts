import { clientSecretOpens, isPublishable, notFound, type Caller } from '@app/service-kit';
import type { Booking } from './booking.js';

/**
 * A publishable key reaches one booking only with that booking's client_secret (API.md "Keys"): without it, or with
 * another booking's, the booking is as unknown as a missing one. Other keys need none (and any they send is ignored).
 */
export function requireClientSecret(caller: Caller, booking: Booking, clientSecret: string | undefined): void {
  if (isPublishable(caller) && !clientSecretOpens(booking.clientSecretHash, clientSecret)) throw notFound('Booking');
}
