import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';

/** A wall-clock time of an ICS value (its fields, whatever zone it is in). */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** How one zone of a feed turns its local times into instants and back. */
export interface WallClockZone {
  toInstant(local: LocalTime): Date;
  toLocal(instant: Date): LocalTime;
}

/**
 * An IANA zone through luxon (tzdata, DST-correct). A local time that DST skips is moved forward by the gap, which is
 * RFC 5545's reading too (the offset before the gap applies).
 */
export function ianaZone(name: string): WallClockZone {
  return {
    toInstant: (local) => DateTime.fromObject(local, { zone: name }).toJSDate(),
    toLocal: (instant) => {
      const { year, month, day, hour, minute, second } = DateTime.fromJSDate(instant, { zone: name });
      return { year, month, day, hour, minute, second };
    },
  };
}

const UTC = ianaZone('UTC');

/** A VTIMEZONE block of the feed itself, for a TZID that is no IANA name (`W. Europe Standard Time`). */
function vtimezone(zone: ICAL.Timezone): WallClockZone {
  return {
    toInstant: (local) => {
      const offsetSeconds = zone.utcOffset(ICAL.Time.fromData({ ...local, isDate: false }));
      const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
      return new Date(wall - offsetSeconds * 1000);
    },
    toLocal: (instant) => {
      const utc = ICAL.Time.fromData({ ...UTC.toLocal(instant), isDate: false }, ICAL.Timezone.utcTimezone);
      const local = utc.convertToZone(zone);
      return { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second };
    },
  };
}

/** An IANA name, or one ending in it (`/mozilla.org/20050126_1/Europe/Berlin`, `/Europe/Berlin`). */
function ianaNameIn(tzid: string): string | null {
  if (IANAZone.isValidZone(tzid)) return tzid;
  const parts = tzid.split('/').filter(Boolean);
  for (let start = 1; start < parts.length; start += 1) {
    const candidate = parts.slice(start).join('/');
    if (candidate.includes('/') && IANAZone.isValidZone(candidate)) return candidate;
  }
  return null;
}

/**
 * The zone a DATE-TIME value of the feed is in: UTC for `…Z`; its TZID as an IANA name when it is one (tzdata is
 * newer than a feed's VTIMEZONE), else the feed's VTIMEZONE of that TZID; floating times, and a TZID the feed does
 * not define, in the schedule's zone (`floating`).
 */
export function zoneOfTime(time: ICAL.Time, tzid: string | null, floating: WallClockZone): WallClockZone {
  if (time.zone === ICAL.Timezone.utcTimezone) return UTC;
  if (!tzid) return floating;
  const iana = ianaNameIn(tzid);
  if (iana) return ianaZone(iana);
  const defined = time.zone as ICAL.Timezone | undefined;
  if (defined instanceof ICAL.Timezone && defined !== ICAL.Timezone.localTimezone) return vtimezone(defined);
  return floating;
}

export function localOf(time: ICAL.Time): LocalTime {
  return { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second };
}
