import { isApiError } from '@scheduling-shop/sdk';

/** What the visitor is told about a failed call: the API's own message, and its per-field messages (details). */
export interface Problem {
  message: string;
  code: string | undefined;
  /** `name` / `email` → the API's message for that field. */
  fields: Partial<Record<'name' | 'email', string>>;
}

const FIELD_OF: Record<string, 'name' | 'email'> = { 'attendee.name': 'name', 'attendee.email': 'email' };

export function problemOf(error: unknown): Problem {
  if (isApiError(error)) {
    const fields: Problem['fields'] = {};
    for (const detail of error.details) {
      const field = FIELD_OF[detail.path];
      if (field && fields[field] === undefined) fields[field] = detail.message;
    }
    return { message: error.message, code: error.code, fields };
  }
  // fetch rejects (no answer, or one the browser withheld: a refused origin gets no CORS headers).
  return { message: 'The booking service could not be reached. Please try again.', code: undefined, fields: {} };
}
