import { centsToDollars, type TicketTypeRecord } from '@app/contracts';

/** The fields of a stored ticket type that its record shows. */
export interface TicketTypeRecordSource {
  id: string;
  eventId: string;
  name: string;
  priceCents: bigint | number;
  quantity: number | null;
  salesStart: Date | null;
  salesEnd: Date | null;
  sold: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A ticket type as the API shows it and as its change events carry it: price in dollars, `sold` from its row. */
export function ticketTypeRecord(row: TicketTypeRecordSource): TicketTypeRecord {
  return {
    id: row.id,
    event_id: row.eventId,
    name: row.name,
    price: centsToDollars(Number(row.priceCents)),
    quantity: row.quantity,
    sales_start: row.salesStart ? row.salesStart.toISOString() : null,
    sales_end: row.salesEnd ? row.salesEnd.toISOString() : null,
    sold: row.sold,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
