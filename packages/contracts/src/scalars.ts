import { z } from 'zod';

/** Ids are UUIDs everywhere. */
export const uuidSchema = z.uuid({ message: 'must be a UUID' });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID of any version: an id in a path that is not one is a 404, never a database error. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** True when the running ICU time zone database knows `name` (so it also accepts aliases and "UTC"). */
export function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone's name in its proper case (`america/new_york` → `America/New_York`), otherwise as the client
 * wrote it. ICU's own canonical names are the old ones (`Asia/Kolkata` → `Asia/Calcutta`, `Europe/Kyiv`
 * → `Europe/Kiev`): a client must get back the name it sent, so ICU's answer is taken only when it
 * differs from the input by case alone.
 */
export function properZoneName(zone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/** An IANA time zone name such as `Europe/Berlin`: checked against the real zone database, then spelled as properZoneName says. */
export const zoneNameSchema = z
  .string({ message: 'must be a string' })
  .max(64, { message: 'must be an IANA time zone name' })
  .refine(isIanaTimeZone, { message: 'must be an IANA time zone name' })
  .transform(properZoneName);

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * Years a date may have. Before 1900 the zone database gives local mean times (Kiritimati −10:40) and
 * JavaScript reads years below 100 as 19xx; past 9998 the next day (an overnight event) has five digits.
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 9998;

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30), in the years 1900–9998. */
export const localDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' })
  .refine(isRealDate, { message: 'must be a date YYYY-MM-DD' })
  .refine((value) => Number(value.slice(0, 4)) >= FIRST_YEAR && Number(value.slice(0, 4)) <= LAST_YEAR, {
    message: `must be a date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31`,
  });

/** A local wall-clock time `HH:MM` (00:00–23:59). */
export const localTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a time HH:MM' });

/** A local time `HH:MM` that may also be `24:00` (the end of a day). */
export const dayEndTimeSchema = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { message: 'must be a time HH:MM (24:00 allowed)' });

/**
 * An instant with an explicit offset or `Z` (a bare local time is refused), normalised to a Date.
 * Responses carry instants as `toISOString()`: UTC with milliseconds and `Z`.
 */
export const instantSchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp with an offset or Z' })
  .transform((value) => new Date(value));

/** An instant as it appears in a response body. */
export const instantOutSchema = z.iso.datetime({ offset: false });

/** Money in dollars with at most two decimals, never negative. */
export const dollarsSchema = z
  .number({ message: 'must be a number' })
  .nonnegative({ message: 'must not be negative' })
  .max(1_000_000_000, { message: 'must be at most 1000000000' })
  // Judged on the number as the client wrote it (JSON's shortest decimal form): 19.99 passes although
  // 19.99 * 100 is 1998.9999999999998, while 0.000000001 or 19.999999999 do not slip through a tolerance.
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), { message: 'must have at most two decimals' });

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/*
 * Query strings carry text, but the API documents `limit=10`, `active=true` and `min_price=9.5` as the integer,
 * boolean and number they are, so that typed clients send them as such. These schemas read the text form
 * first; anything else reaches the typed schema unchanged and is refused with its message.
 */

/** A query-string boolean: only `true` and `false` are accepted. */
export const queryBooleanSchema = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ message: 'must be true or false' }),
);

/** A query-string integer (`limit=10`) checked by `schema`. */
export function queryInteger<T extends z.ZodType<number, number>>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value), schema);
}

/** A query-string number (`min_price=10.5`) checked by `schema`. */
export function queryNumber<T extends z.ZodType<number, number>>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value), schema);
}
