import { z } from 'zod';

/** Path ids are plain strings here: a malformed one is a 404 from the use case, not a 400. */
export const idParams = z.object({ id: z.string() });
export const registrationParams = z.object({ id: z.string(), registrationId: z.string() });
