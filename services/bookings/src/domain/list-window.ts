const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Bounds on start_time for the booking list: `from` inclusive, `before` exclusive, `until` inclusive. */
export interface StartTimeWindow {
  from?: Date;
  before?: Date;
  until?: Date;
}

/**
 * Reads `start_date`/`end_date` of the list (already validated): a `YYYY-MM-DD` is a UTC day and
 * `end_date` then includes that whole day; a full instant is used as is (inclusive). `upcoming`
 * raises the lower bound to `now`.
 */
export function startTimeWindow(query: { start_date?: string; end_date?: string; upcoming?: boolean }, now: Date): StartTimeWindow {
  const window: StartTimeWindow = {};
  if (query.start_date) window.from = new Date(DATE_ONLY.test(query.start_date) ? `${query.start_date}T00:00:00Z` : query.start_date);
  if (query.upcoming && (!window.from || window.from < now)) window.from = now;
  if (query.end_date) {
    if (DATE_ONLY.test(query.end_date)) window.before = new Date(new Date(`${query.end_date}T00:00:00Z`).getTime() + DAY_MS);
    else window.until = new Date(query.end_date);
  }
  return window;
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (backslash is Postgres' default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
