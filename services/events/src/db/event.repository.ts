import { randomUUID } from 'node:crypto';
import type { EventQuestion, EventStatus } from '@app/contracts';
import { isoInstantSql, sqlOf } from '@app/service-kit';
import type { Db } from './prisma.js';

/** An event as stored, with the local fields as the client gave them and the derived instants. */
export interface EventRow extends EventState {
  id: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date;
  /** Places taken and waitlisted, when the query asked for counts. */
  placesTaken?: number;
  placesWaitlisted?: number;
  /** Places checked in (not cancelled), when the query asked for them. */
  checkedIn?: number;
}

/** Every field a create or an update writes. */
export interface EventState {
  siteId: string | null;
  title: string;
  description: string | null;
  startDate: string;
  startTime: string | null;
  endTime: string | null;
  timezone: string;
  startsAt: Date;
  endsAt: Date | null;
  location: string | null;
  costCents: number;
  slots: number | null;
  status: EventStatus;
  waitlist: boolean;
  questions: EventQuestion[];
}

/** The columns of an event under the names of EventRow (dates as text, cents as a JS number), instants as `instant` renders them. */
function eventColumns(instant: (column: string) => string): string {
  return `e.id::text AS id, e.organization_id::text AS "organizationId", e.site_id AS "siteId",
  e.title, e.description, to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", e.start_time AS "startTime",
  e.end_time AS "endTime", e.timezone, ${instant('e.starts_at')} AS "startsAt", ${instant('e.ends_at')} AS "endsAt", e.location,
  e.cost_cents::float8 AS "costCents", e.slots, e.status, e.waitlist, e.questions, ${instant('e.created_at')} AS "createdAt", ${instant('e.updated_at')} AS "updatedAt"`;
}

const EVENT_COLUMNS = eventColumns((column) => column);

/** The same columns for reads that only present events: the instants already as the API writes them. */
export const PRESENTED_EVENT_COLUMNS = eventColumns(isoInstantSql);

/** An event as a presenting read returns it: the instants already in the API's text form. */
export type PresentedEventRow = Omit<EventRow, 'startsAt' | 'endsAt' | 'createdAt' | 'updatedAt'> & {
  startsAt: string;
  endsAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/**
 * Places taken at the event `e` (the quantities of its confirmed registrations) and asked for by its waitlisted ones,
 * kept on the row by a trigger (migrations 0003, 0007).
 */
export const PLACES_TAKEN = 'e.places_taken AS "placesTaken", e.places_waitlisted AS "placesWaitlisted"';

/**
 * Places checked in at the event `e` (of registrations not cancelled), summed from registrations_checked_in_idx
 * (migration 0008) where it is read: a scan writes the registration's row only, never the event's.
 */
export const CHECKED_IN = `(SELECT COALESCE(sum(c.quantity), 0)::int FROM registrations c
    WHERE c.event_id = e.id AND c.checked_in_at IS NOT NULL AND c.status <> 'cancelled') AS "checkedIn"`;

/** The version of the event `e` (its ETag's), raised by every update (migration 0004): reads of one event select it. */
const VERSION = 'e.version';

/** An event as a read or write of that one event returns it: with its version. */
export type VersionedEventRow = EventRow & { version: number };

export async function insertEvent(db: Db, organizationId: string, state: EventState): Promise<VersionedEventRow> {
  const { rows } = await sqlOf(db).query<VersionedEventRow>(
    `INSERT INTO events AS e (id, organization_id, site_id, title, description, start_date, start_time, end_time, timezone,
                             starts_at, ends_at, location, cost_cents, slots, status, waitlist, questions)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6::date, $7, $8, $9, $10::timestamptz, $11::timestamptz, $12, $13::bigint, $14::int, $15,
             $16, $17::jsonb)
     RETURNING ${EVENT_COLUMNS}, ${VERSION}`,
    [randomUUID(), organizationId, ...stateValues(state)],
  );
  return only(rows);
}

/**
 * The event with its version and the places checked in (which its ETag is made of too, as they are part of its
 * record's counts but not of its row), and the places taken when `withCounts`.
 */
export async function findEvent(
  db: Db,
  organizationId: string,
  id: string,
  withCounts: boolean,
): Promise<(VersionedEventRow & { checkedIn: number }) | null> {
  const counts = withCounts ? `, ${PLACES_TAKEN}, ${CHECKED_IN}` : `, ${CHECKED_IN}`;
  const { rows } = await sqlOf(db).query<VersionedEventRow & { checkedIn: number }>(
    `SELECT ${EVENT_COLUMNS}, ${VERSION} ${counts} FROM events e WHERE e.id = $1::uuid AND e.organization_id = $2::uuid`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** An event read under its row lock, with its counts. */
export type LockedEventRow = VersionedEventRow & { placesTaken: number; placesWaitlisted: number };

/**
 * Reads the event and locks its row until the transaction ends, with the places taken at that moment
 * (a row locked after a wait is read as last committed, so every registration before it counts).
 * Every write that depends on capacity (registering, lowering slots, unpublishing) goes through here,
 * so they are serialized per event.
 */
export async function lockEvent(db: Db, organizationId: string, id: string): Promise<LockedEventRow | null> {
  const { rows } = await sqlOf(db).query<LockedEventRow>(
    `SELECT ${EVENT_COLUMNS}, ${VERSION}, ${PLACES_TAKEN} FROM events e WHERE e.id = $1::uuid AND e.organization_id = $2::uuid FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** The places checked in at an event (for its ETag beside a locked row's version: see findEvent). */
export async function checkedInPlaces(db: Db, id: string): Promise<number> {
  const { rows } = await sqlOf(db).query<{ checkedIn: number }>(`SELECT ${CHECKED_IN} FROM events e WHERE e.id = $1::uuid`, [id]);
  return rows[0]?.checkedIn ?? 0;
}

export async function updateEvent(db: Db, id: string, state: EventState): Promise<VersionedEventRow> {
  const { rows } = await sqlOf(db).query<VersionedEventRow>(
    `UPDATE events AS e SET site_id = $2, title = $3, description = $4, start_date = $5::date, start_time = $6, end_time = $7,
            timezone = $8, starts_at = $9::timestamptz, ends_at = $10::timestamptz, location = $11, cost_cents = $12::bigint,
            slots = $13::int, status = $14, waitlist = $15, questions = $16::jsonb, updated_at = now()
      WHERE e.id = $1::uuid
     RETURNING ${EVENT_COLUMNS}, ${VERSION}`,
    [id, ...stateValues(state)],
  );
  return only(rows);
}

/** Deletes the event (its registrations go with it); false when there was none in the organization. */
export async function deleteEvent(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await sqlOf(db).query('DELETE FROM events WHERE id = $1::uuid AND organization_id = $2::uuid RETURNING id', [
    id,
    organizationId,
  ]);
  return rowCount === 1;
}

/** The values of every written column, in the order the insert and the update list them. */
function stateValues(state: EventState): unknown[] {
  return [
    state.siteId,
    state.title,
    state.description,
    state.startDate,
    state.startTime,
    state.endTime,
    state.timezone,
    state.startsAt,
    state.endsAt,
    state.location,
    state.costCents,
    state.slots,
    state.status,
    state.waitlist,
    JSON.stringify(state.questions),
  ];
}

function only<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error('expected one row');
  return row;
}
