import { z } from 'zod';
import { strictFields } from './strict.js';

/** HTTP bodies and records of check-ins at the door (events service). */

/** The ticket code alphabet (API.md: `A–Z` and `2–9`, no 0 or 1 beside O and I) and length. */
export const TICKET_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';
export const TICKET_CODE_LENGTH = 10;

/**
 * A scanned ticket code: upper-cased first (a scanner or a person types what it reads, in either case), then it must
 * be 10 characters of the alphabet.
 */
const ticketCodeSchema = z
  .string({ message: 'must be a string' })
  .max(100, { message: 'must be 10 characters of A-Z and 2-9' })
  .transform((code) => code.trim().toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-9]{10}$/, { message: 'must be 10 characters of A-Z and 2-9' }));

/** POST /api/v1/events/{id}/check-ins */
export const createCheckInBodySchema = z
  .strictObject({ ticket_code: ticketCodeSchema }, strictFields)
  .meta({ id: 'CreateCheckInBody', example: { ticket_code: 'K7QX2M9HRT' } });
export type CreateCheckInBody = z.infer<typeof createCheckInBodySchema>;

/** The 201 of a check-in: which registration came in, and when (UTC). */
export const checkInRecordSchema = z
  .object({ registration_id: z.uuid(), checked_in_at: z.string() })
  .meta({ id: 'CheckIn', example: { registration_id: '5b0c9a7e-1c1f-4f59-9f3e-6f1d2b8d4a10', checked_in_at: '2031-05-20T08:58:12.345Z' } });
export type CheckInRecord = z.infer<typeof checkInRecordSchema>;
