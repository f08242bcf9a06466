import type { RegistrationRecord } from '@app/contracts';

/** The fields of a stored registration that its record shows. */
export interface RegistrationRecordSource {
  id: string;
  eventId: string;
  name: string;
  email: string;
  quantity: number;
  status: string;
  ticketTypeId: string | null;
  waitlistPosition: number | null;
  createdAt: Date;
  cancelledAt: Date | null;
  ticketCode: string;
  checkedInAt: Date | null;
  /** As stored (jsonb): the answers as they were given. */
  answers: unknown;
}

/** A registration as the API shows it and as its change events carry it. */
export function registrationRecord(row: RegistrationRecordSource): RegistrationRecord {
  return {
    id: row.id,
    event_id: row.eventId,
    name: row.name,
    email: row.email,
    quantity: row.quantity,
    status: row.status as RegistrationRecord['status'],
    ticket_type_id: row.ticketTypeId,
    waitlist_position: row.waitlistPosition,
    ...checkInFields(row),
    created_at: row.createdAt.toISOString(),
    cancelled_at: row.cancelledAt ? row.cancelledAt.toISOString() : null,
  };
}

/** The check-in and questions part of the record (migration 0008). */
function checkInFields(row: RegistrationRecordSource): Pick<RegistrationRecord, 'ticket_code' | 'checked_in_at' | 'answers'> {
  return {
    ticket_code: row.ticketCode,
    checked_in_at: row.checkedInAt ? row.checkedInAt.toISOString() : null,
    answers: (row.answers ?? {}) as Record<string, unknown>,
  };
}
