import type { ReservationRecord, ReservationStatus, ReservedItem } from '@app/contracts';

/** One stored item of a reservation: a variant or a product (exactly one), at its place in the request. */
export interface StoredItem {
  index: number;
  variant_id: string | null;
  product_id: string | null;
  quantity: number;
}

/** A reservation row as reads select it (db/reservation.repository.ts), instants as the API writes them. */
export interface ReservationView {
  id: string;
  /** As last written. */
  status: ReservationStatus;
  /** Its expires_at has passed (judged by the database's clock, as `available` is). */
  lapsed: boolean;
  expires_at: string;
  created_at: string;
  items: StoredItem[];
}

/**
 * The status a client sees: an active reservation whose expires_at has passed is expired from that instant on, though
 * it is written so only later (API.md: "no sweep delay visible to clients").
 */
export function shownStatus(view: Pick<ReservationView, 'status' | 'lapsed'>): ReservationStatus {
  return view.status === 'active' && view.lapsed ? 'expired' : view.status;
}

/** An item as the client sent it: `{variant_id, quantity}` or `{product_id, quantity}`. */
function itemRecord(item: StoredItem): ReservedItem {
  return item.variant_id !== null
    ? { variant_id: item.variant_id, quantity: item.quantity }
    : { product_id: item.product_id ?? '', quantity: item.quantity };
}

export function reservationRecord(view: ReservationView): ReservationRecord {
  return {
    id: view.id,
    status: shownStatus(view),
    items: view.items.map(itemRecord),
    expires_at: view.expires_at,
    created_at: view.created_at,
  };
}
