import type { ScheduleRecord } from '@app/contracts';
import type { Queryable } from '@app/service-kit';
import type { Interval, ScheduleRules } from '../domain/availability.js';
import type { SeatTaker } from '../domain/seats.js';

/** What the seats, the day limit, the horizon and public booking ask of a schedule. */
export interface ScheduleLimits {
  seatsPerSlot: number;
  maxBookingsPerDay: number | null;
  bookingHorizonDays: number | null;
  publicBooking: boolean;
  /** Whether POST or PATCH set slot_interval (else it follows the slot's length, an event type's included). */
  intervalSet: boolean;
}

export interface ScheduleWithBusyTime {
  id: string;
  name: string;
  rules: ScheduleRules;
  limits: ScheduleLimits;
  /** Calendar busy windows overlapping the window, unpadded. */
  blockers: Interval[];
  /** PENDING/CONFIRMED bookings and holds active at `now` overlapping the window (when asked for), unpadded. */
  takers: SeatTaker[];
  /** The asked event type's duration when it is an active one of the schedule's organization, else null. */
  eventTypeDuration: number | null;
}

interface Row {
  id: string;
  name: string;
  timezone: string;
  slot_duration: number;
  slot_interval: number;
  availability: ScheduleRecord['availability'];
  date_overrides: ScheduleRecord['date_overrides'];
  buffer_before: number;
  buffer_after: number;
  minimum_notice: number;
  slot_interval_set: boolean;
  seats_per_slot: number;
  max_bookings_per_day: number | null;
  booking_horizon_days: number | null;
  public_booking: boolean;
  /** `start,end,start,end…` of the calendar busy windows in epoch ms; null when there are none. */
  spans: string | null;
  /** `start,end,seats,…` of the bookings and active holds in epoch ms; null when there are none (or not asked). */
  taken: string | null;
  event_type_duration: number | null;
}

const epochMs = (column: string) => `round(date_part('epoch', ${column}) * 1000)::bigint`;

/**
 * PENDING/CONFIRMED bookings and the holds active at $5 (the reader's clock: an expired hold stops counting here, with
 * no event), both through their partial GiST (schedule, time range) indexes.
 */
const TAKEN = `
  (SELECT string_agg(${epochMs('t.start_time')} || ',' || ${epochMs('t.end_time')} || ',' || t.seats, ',')
     FROM (SELECT b.start_time, b.end_time, b.seats FROM booking_intervals b
            WHERE b.schedule_id = s.id AND b.status IN ('PENDING', 'CONFIRMED')
              AND tstzrange(b.start_time, b.end_time) && tstzrange($3, $4)
           UNION ALL
           SELECT h.start_time, h.end_time, h.seats FROM hold_intervals h
            WHERE h.schedule_id = s.id AND h.status = 'active' AND h.expires_at > $5
              AND tstzrange(h.start_time, h.end_time) && tstzrange($3, $4)) t)`;

/** The event type $6 of the schedule's organization, when active (scheduling's own projection of the events service's). */
const EVENT_TYPE = `
  (SELECT e.duration FROM event_types e
    WHERE e.id = $6::uuid AND e.organization_id = s.organization_id AND e.is_active AND NOT e.deleted)`;

/** Busy time as one `start,end,…` text of epoch milliseconds: far cheaper to build and parse than JSON, arrays or timestamps. */
const query = (taken: string, eventType: string) => `
  SELECT s.id::text AS id, s.name, s.timezone, s.slot_duration, COALESCE(s.slot_interval, s.slot_duration) AS slot_interval,
         s.slot_interval IS NOT NULL AS slot_interval_set, s.seats_per_slot, s.max_bookings_per_day, s.booking_horizon_days,
         s.public_booking, s.availability, s.date_overrides, s.buffer_before, s.buffer_after, s.minimum_notice,
         (SELECT string_agg(${epochMs('w.start_time')} || ',' || ${epochMs('w.end_time')}, ',') FROM busy_windows w
           WHERE w.schedule_id = s.id AND tstzrange(w.start_time, w.end_time) && tstzrange($3, $4)) AS spans,
         ${taken} AS taken, ${eventType} AS event_type_duration
    FROM schedules s
   WHERE s.id = $1 AND s.is_active AND ($2::uuid IS NULL OR s.organization_id = $2::uuid)`;

// Named, so each connection parses and plans them once (planning costs about a third of the execution). Each text
// names every parameter it is given.
const WITH_BOOKINGS = { name: 'scheduling-slots-busy-time', text: query(TAKEN, 'NULL::integer') };
const WITH_EVENT_TYPE = { name: 'scheduling-slots-event-type', text: query(TAKEN, EVENT_TYPE) };
const CALENDAR_ONLY = { name: 'scheduling-calendar-busy-time', text: query('NULL::text', 'NULL::integer') };

/**
 * The active schedule (of the organization, when one is given) with the busy time overlapping `window`,
 * in one round trip. Both busy tables are read through their GiST (schedule, time range) indexes.
 */
export async function loadScheduleWithBusyTime(
  db: Queryable,
  request: {
    scheduleId: string;
    organizationId: string | null;
    window: Interval;
    /** With `now` (epoch ms): bookings and the holds active then are read too. */
    bookingsAt: number | null;
    eventTypeId?: string | undefined;
  },
): Promise<ScheduleWithBusyTime | null> {
  const values: unknown[] = [request.scheduleId, request.organizationId, new Date(request.window.start), new Date(request.window.end)];
  let statement = CALENDAR_ONLY;
  if (request.bookingsAt !== null) {
    values.push(new Date(request.bookingsAt));
    statement = request.eventTypeId === undefined ? WITH_BOOKINGS : WITH_EVENT_TYPE;
    if (request.eventTypeId !== undefined) values.push(request.eventTypeId);
  }
  const { rows } = await db.query<Row>({ ...statement, values });
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    rules: {
      timezone: row.timezone,
      slotDuration: row.slot_duration,
      slotInterval: row.slot_interval,
      availability: row.availability,
      dateOverrides: row.date_overrides,
      bufferBefore: row.buffer_before,
      bufferAfter: row.buffer_after,
      minimumNotice: row.minimum_notice,
    },
    limits: {
      seatsPerSlot: row.seats_per_slot,
      maxBookingsPerDay: row.max_bookings_per_day,
      bookingHorizonDays: row.booking_horizon_days,
      publicBooking: row.public_booking,
      intervalSet: row.slot_interval_set,
    },
    blockers: parseSpans(row.spans),
    takers: parseTaken(row.taken),
    eventTypeDuration: row.event_type_duration,
  };
}

function parseTaken(taken: string | null): SeatTaker[] {
  if (!taken) return [];
  const parts = taken.split(',');
  const takers: SeatTaker[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3)
    takers.push({ start: Number(parts[i]), end: Number(parts[i + 1]), seats: Number(parts[i + 2]) });
  return takers;
}

function parseSpans(spans: string | null): Interval[] {
  if (!spans) return [];
  const bounds = spans.split(',');
  const intervals: Interval[] = [];
  for (let i = 0; i + 1 < bounds.length; i += 2) intervals.push({ start: Number(bounds[i]), end: Number(bounds[i + 1]) });
  return intervals;
}
