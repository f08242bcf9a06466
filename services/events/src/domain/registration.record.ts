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
    created_at: row.createdAt.toISOString(),
    cancelled_at: row.cancelledAt ? row.cancelledAt.toISOString() : null,
  };
}
