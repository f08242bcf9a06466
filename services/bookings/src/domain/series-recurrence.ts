import { DateTime } from 'luxon';

interface Recurrence {
  frequency: 'daily' | 'weekly';
  interval: number;
  count: number;
}

/**
 * The occurrences of a series: each starts at the first one's local wall-clock time in `timezone`, `interval` days
 * or weeks after the one before, and lasts as long as the first (its length in minutes, not its local end time). Across
 * a DST change the UTC instant moves and the local time stays; a local time the change skips moves forward by the gap
 * (luxon's rule), as a clock would show it.
 */
export function occurrences(
  first: { startTime: Date; endTime: Date },
  timezone: string,
  recurrence: Recurrence,
): { startTime: Date; endTime: Date }[] {
  const length = first.endTime.getTime() - first.startTime.getTime();
  const start = DateTime.fromJSDate(first.startTime, { zone: timezone });
  const unit = recurrence.frequency === 'daily' ? 'days' : 'weeks';
  return Array.from({ length: recurrence.count }, (_, index) => {
    const startTime = start.plus({ [unit]: index * recurrence.interval }).toJSDate();
    return { startTime, endTime: new Date(startTime.getTime() + length) };
  });
}
