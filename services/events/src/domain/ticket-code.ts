import { randomInt } from 'node:crypto';
import { TICKET_CODE_ALPHABET, TICKET_CODE_LENGTH } from '@app/contracts';

/**
 * A ticket code: 10 characters of A–Z and 2–9, each drawn uniformly by node:crypto's CSPRNG (`randomInt` rejects the
 * biased tail itself). 34^10 ≈ 2·10^15 codes: a guess at an event of 10,000 tickets hits one in 2·10^11 tries.
 */
export function newTicketCode(): string {
  let code = '';
  for (let index = 0; index < TICKET_CODE_LENGTH; index += 1) code += TICKET_CODE_ALPHABET[randomInt(TICKET_CODE_ALPHABET.length)];
  return code;
}
