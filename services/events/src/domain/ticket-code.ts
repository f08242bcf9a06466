import { randomInt } from 'node:crypto';
import { TICKET_CODE_ALPHABET, TICKET_CODE_LENGTH } from '@app/contracts';
import { isUniqueViolation } from '@app/service-kit';

/** The constraint that keeps ticket codes unique per organization (migration 0008). */
const TICKET_CODE_UNIQUE = 'registrations_organization_ticket_code_key';

/** Attempts before a clash is taken for a fault: with 34^10 codes, even a second clash is out of reach. */
const ATTEMPTS = 3;

/**
 * A ticket code: 10 characters of A–Z and 2–9, each drawn uniformly by node:crypto's CSPRNG (`randomInt` rejects the
 * biased tail itself). 34^10 ≈ 2·10^15 codes: a guess at an event of 10,000 tickets hits one in 2·10^11 tries.
 */
export function newTicketCode(): string {
  let code = '';
  for (let index = 0; index < TICKET_CODE_LENGTH; index += 1) code += TICKET_CODE_ALPHABET[randomInt(TICKET_CODE_ALPHABET.length)];
  return code;
}

/**
 * Runs `write` (a whole transaction) with a fresh code, and again with another when the organization already has that
 * code: the unique violation aborted the transaction, so nothing of the failed attempt is kept.
 */
export async function withNewTicketCode<T>(write: (ticketCode: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write(newTicketCode());
    } catch (error) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(error, TICKET_CODE_UNIQUE)) throw error;
    }
  }
}
