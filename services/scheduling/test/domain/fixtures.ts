import type { Weekday } from '@app/contracts';
import type { ScheduleRules } from '../../src/domain/availability.js';

const ALL_DAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Rules of a schedule with 30-minute slots and the given hours on every day (override what a case needs). */
export function rules(overrides: Partial<ScheduleRules> & { hours?: [string, string][] } = {}): ScheduleRules {
  const { hours = [['00:00', '24:00']], ...rest } = overrides;
  return {
    timezone: 'UTC',
    slotDuration: 30,
    slotInterval: 30,
    availability: ALL_DAYS.flatMap((day) => hours.map(([start, end]) => ({ day, start, end }))),
    dateOverrides: [],
    bufferBefore: 0,
    bufferAfter: 0,
    minimumNotice: 0,
    ...rest,
  };
}

/** A "now" long before every date the tables use, so minimum notice never interferes unless a case sets it. */
export const LONG_AGO = Date.parse('2020-01-01T00:00:00Z');
