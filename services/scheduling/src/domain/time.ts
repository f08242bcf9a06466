import { IANAZone } from 'luxon';

/*
 * Time math of the service: local dates and wall times in an IANA zone ↔ UTC instants (epoch ms).
 * Local dates are day numbers (days since 1970-01-01), so date arithmetic is integer arithmetic.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** Offset samples kept per zone (about 27 years of days). */
const MAX_SAMPLES = 10_000;

/** Days since 1970-01-01 of `YYYY-MM-DD` (a date already validated by the contracts). */
export function dayNumberOf(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS; // (Date.UTC would read years 0–99 as 1900–1999)
}

export function dateOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOfDayNumber(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/**
 * One IANA zone. Offsets are sampled once per UTC midnight and cached: when the samples a day before and
 * two days after a local day agree, the whole day has that offset (no zone changes twice within three
 * days) and conversions are plain arithmetic; only days near a transition ask the zone database per call.
 */
export class Zone {
  private static readonly zones = new Map<string, Zone>();
  private readonly zone: IANAZone;
  private readonly samples = new Map<number, number>();

  private constructor(readonly name: string) {
    this.zone = IANAZone.create(name);
    if (!this.zone.isValid) throw new RangeError(`unknown time zone ${name}`);
  }

  /** The zone named `name`, shared so its offset samples serve every request (the zone database is static). */
  static of(name: string): Zone {
    let zone = Zone.zones.get(name);
    if (!zone) {
      zone = new Zone(name);
      Zone.zones.set(name, zone);
    }
    return zone;
  }

  /** Offset from UTC in minutes at `ms`. */
  offsetAt(ms: number): number {
    return this.zone.offset(ms);
  }

  /**
   * The instant of local wall time `minutes` after midnight of local day `day` (may be 1440). As in
   * RFC 5545: a time skipped by a spring-forward gap is read with the offset before the gap, an
   * ambiguous fall-back time is its first occurrence.
   */
  instantOf(day: number, minutes: number): number {
    const wall = day * DAY_MS + minutes * MINUTE_MS;
    const fixed = this.fixedOffsetAround(day);
    if (fixed !== null) return wall - fixed * MINUTE_MS;
    const before = this.offsetAt(wall - DAY_MS);
    const after = this.offsetAt(wall + DAY_MS);
    const earlier = wall - before * MINUTE_MS;
    const later = wall - after * MINUTE_MS;
    const earlierValid = this.offsetAt(earlier) === before;
    const laterValid = this.offsetAt(later) === after;
    if (earlierValid && laterValid) return Math.min(earlier, later);
    if (laterValid && !earlierValid) return later;
    return earlier;
  }

  /** Local wall-clock time of an instant: its local day number and minutes after local midnight. */
  localOf(ms: number): { day: number; minutes: number } {
    const fixed = this.fixedOffsetAround(Math.floor(ms / DAY_MS));
    const local = ms + (fixed ?? this.offsetAt(ms)) * MINUTE_MS;
    const day = Math.floor(local / DAY_MS);
    return { day, minutes: Math.floor((local - day * DAY_MS) / MINUTE_MS) };
  }

  /** Local day number of an instant. */
  dayOf(ms: number): number {
    return this.localOf(ms).day;
  }

  /** The offset of the whole span [day - 1, day + 2) (UTC days), or null when it changes inside it. */
  private fixedOffsetAround(day: number): number | null {
    const first = this.sample(day - 1);
    return first === this.sample(day + 2) ? first : null;
  }

  private sample(day: number): number {
    let offset = this.samples.get(day);
    if (offset === undefined) {
      if (this.samples.size >= MAX_SAMPLES) this.samples.clear(); // requests may name any date: stay bounded
      offset = this.offsetAt(day * DAY_MS);
      this.samples.set(day, offset);
    }
    return offset;
  }
}

const LABELS = Array.from({ length: 1440 }, (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);

/** `HH:MM` of minutes after midnight (0–1439). */
export function labelOf(minutes: number): string {
  return LABELS[minutes] ?? '';
}

let isoDay = Number.NaN;
let isoDate = '';

/**
 * `toISOString()` of an instant, built from the date (memoised: slots come in date order) and a table of
 * `HH:MM` labels when the instant is on a whole minute, which slots are. Same output, a fraction of the cost.
 */
export function isoOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const minutes = (ms - day * DAY_MS) / MINUTE_MS;
  if (!Number.isInteger(minutes)) return new Date(ms).toISOString();
  if (day !== isoDay) {
    isoDay = day;
    isoDate = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  return `${isoDate}T${labelOf(minutes)}:00.000Z`;
}
