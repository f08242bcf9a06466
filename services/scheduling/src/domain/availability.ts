import { WEEKDAYS, minutesOfDay, type Weekday } from '@app/contracts';
import { Zone, dayNumberOf, weekdayOfDayNumber } from './time.js';

/** What slot generation and the availability check need to know about a schedule. */
export interface ScheduleRules {
  timezone: string;
  slotDuration: number;
  slotInterval: number;
  availability: readonly { day: Weekday; start: string; end: string }[];
  dateOverrides: readonly { date: string; intervals: readonly { start: string; end: string }[] }[];
  bufferBefore: number;
  bufferAfter: number;
  minimumNotice: number;
}

/** A half-open span of time [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

type MinuteRange = readonly [start: number, end: number];

/** The schedule's hours, local to its zone: per weekday (0 = Sunday) and per overridden date. */
export class Availability {
  readonly zone: Zone;
  private readonly weekly: MinuteRange[][] = Array.from({ length: 7 }, () => []);
  private readonly overrides = new Map<number, MinuteRange[]>();

  constructor(rules: Pick<ScheduleRules, 'timezone' | 'availability' | 'dateOverrides'>) {
    this.zone = Zone.of(rules.timezone);
    for (const rule of rules.availability) {
      // WEEKDAYS starts on Monday; day numbers count from Sunday.
      this.weekly[(WEEKDAYS.indexOf(rule.day) + 1) % 7]?.push(toRange(rule));
    }
    for (const list of this.weekly) list.sort(byStart);
    for (const override of rules.dateOverrides) {
      this.overrides.set(dayNumberOf(override.date), override.intervals.map(toRange).sort(byStart));
    }
  }

  /** The local minute ranges of one local day: its override if it has one, else its weekday's hours. */
  rangesOf(day: number): readonly MinuteRange[] {
    return this.overrides.get(day) ?? this.weekly[weekdayOfDayNumber(day)] ?? [];
  }

  /**
   * The available intervals of local days `fromDay`..`toDay` (inclusive), as instants, sorted by start.
   * (A bound inside a spring-forward gap can make two intervals of a day overlap in instants.)
   */
  intervals(fromDay: number, toDay: number): Interval[] {
    const result: Interval[] = [];
    for (let day = fromDay; day <= toDay; day += 1) {
      for (const [from, to] of this.rangesOf(day)) {
        const start = this.zone.instantOf(day, from);
        const end = this.zone.instantOf(day, to);
        if (end > start) result.push({ start, end }); // a range wholly inside a gap has no instants
      }
    }
    return result.sort((a, b) => a.start - b.start);
  }

  /** True when [start, end) lies inside the available time (intervals that touch count as one). */
  covers(start: number, end: number): boolean {
    const fromDay = this.zone.dayOf(start);
    const toDay = this.zone.dayOf(end);
    if (toDay - fromDay > 366) return false; // longer than any booking: refuse without walking years
    let covered = start;
    for (const interval of this.intervals(fromDay, toDay)) {
      if (interval.end <= covered) continue;
      if (interval.start > covered) return false;
      covered = interval.end;
      if (covered >= end) return true;
    }
    return false;
  }
}

function toRange(range: { start: string; end: string }): MinuteRange {
  return [minutesOfDay(range.start), minutesOfDay(range.end)];
}

function byStart(a: MinuteRange, b: MinuteRange): number {
  return a[0] - b[0];
}
