import type { Queryable } from '@app/service-kit';
import type { RegistrationRecordSource } from '../domain/registration.record.js';

/*
 * The statements of a scan at the door, through pg (the hot path: 50 scanners at one event). A scan reads the event
 * without locking it and writes only the registration's row, so scans of different tickets never wait for each other;
 * scans of one ticket queue on that row's lock, and the conditional UPDATE lets exactly one of them through.
 */

/** The columns of a registration under the names of RegistrationRecordSource. */
const REGISTRATION_COLUMNS = `r.id::text AS id, r.event_id::text AS "eventId", r.name, r.email, r.quantity, r.status,
  r.created_at AS "createdAt", r.cancelled_at AS "cancelledAt", r.ticket_code AS "ticketCode",
  r.checked_in_at AS "checkedInAt", r.answers, r.ticket_type_id::text AS "ticketTypeId", r.waitlist_position AS "waitlistPosition"`;

/** The status of the organization's event, read without a lock; null when there is none. */
export async function eventStatusOf(db: Queryable, organizationId: string, eventId: string): Promise<string | null> {
  const { rows } = await db.query<{ status: string }>('SELECT status FROM events WHERE id = $1::uuid AND organization_id = $2::uuid', [
    eventId,
    organizationId,
  ]);
  return rows[0]?.status ?? null;
}

/**
 * Checks in the event's registration with this code at `at`, if it is checkable (neither cancelled nor waitlisted)
 * and not checked in yet; null otherwise. A second scan that ran at the same time waited for the first's row lock and,
 * Postgres reading the row again once it is free, finds it checked in: 0 rows. Found by the organization's unique
 * (organization_id, ticket_code) index.
 */
export async function checkInByCode(
  db: Queryable,
  key: { organizationId: string; eventId: string; ticketCode: string },
  at: Date,
): Promise<RegistrationRecordSource | null> {
  const { rows } = await db.query<RegistrationRecordSource>(
    `UPDATE registrations AS r SET checked_in_at = $4::timestamptz
      WHERE r.organization_id = $1::uuid AND r.ticket_code = $3 AND r.event_id = $2::uuid
        AND r.checked_in_at IS NULL AND r.status NOT IN ('cancelled', 'waitlisted')
     RETURNING ${REGISTRATION_COLUMNS}`,
    [key.organizationId, key.eventId, key.ticketCode, at],
  );
  return rows[0] ?? null;
}

/**
 * The status and check-in time of the event's registration with this code, as last committed (a statement of its
 * own after the UPDATE, so it sees the scan that got in first); null when the event has no such code.
 */
export async function ticketState(
  db: Queryable,
  key: { organizationId: string; eventId: string; ticketCode: string },
): Promise<{ status: string; checkedInAt: Date | null } | null> {
  const { rows } = await db.query<{ status: string; checkedInAt: Date | null }>(
    `SELECT r.status, r.checked_in_at AS "checkedInAt" FROM registrations r
      WHERE r.organization_id = $1::uuid AND r.ticket_code = $3 AND r.event_id = $2::uuid`,
    [key.organizationId, key.eventId, key.ticketCode],
  );
  return rows[0] ?? null;
}

/** Clears the registration's check-in; null when it was not checked in (or does not exist). */
export async function undoCheckInRow(
  db: Queryable,
  key: { organizationId: string; eventId: string; id: string },
): Promise<(RegistrationRecordSource & { version: number }) | null> {
  const { rows } = await db.query<RegistrationRecordSource & { version: number }>(
    `UPDATE registrations AS r SET checked_in_at = NULL
      WHERE r.id = $3::uuid AND r.event_id = $2::uuid AND r.organization_id = $1::uuid AND r.checked_in_at IS NOT NULL
     RETURNING ${REGISTRATION_COLUMNS}, r.version`,
    [key.organizationId, key.eventId, key.id],
  );
  return rows[0] ?? null;
}

/** The registration as it is, with its version; null when the event has none with this id. */
export async function registrationWithVersion(
  db: Queryable,
  key: { organizationId: string; eventId: string; id: string },
): Promise<(RegistrationRecordSource & { version: number }) | null> {
  const { rows } = await db.query<RegistrationRecordSource & { version: number }>(
    `SELECT ${REGISTRATION_COLUMNS}, r.version FROM registrations r
      WHERE r.id = $3::uuid AND r.event_id = $2::uuid AND r.organization_id = $1::uuid`,
    [key.organizationId, key.eventId, key.id],
  );
  return rows[0] ?? null;
}
