import { isoInstantSql, type Queryable } from '@app/service-kit';
import type { ReservationStatus } from '@app/contracts';
import type { ReservationView, StoredItem } from '../domain/reservation.record.js';

/**
 * Reservations on the kit's pg-native interface: the hot path of a checkout. Every writer of stock locks rows in one
 * order, so no two of them wait on each other in a cycle: a reservation's row first (commit, release, expiry), then
 * products by id, then variants by id (a variant's writes lock its product first too, variants.use-case.ts).
 */

export type StockTable = 'products' | 'product_variants';

/** A row holding stock, as it is under its lock. */
export interface StockRow {
  id: string;
  stock: number | null;
  reserved: number;
}

/** Locks the organization's rows of `ids` in id order and returns them (an id of another organization is absent). */
export async function lockStock(db: Queryable, table: StockTable, organizationId: string, ids: readonly string[]): Promise<StockRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<StockRow>(
    `SELECT id::text AS id, stock, reserved FROM ${table}
      WHERE organization_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
    [organizationId, ids],
  );
  return rows;
}

/**
 * What reservations still written as active but past their expires_at hold of each row (`reserved` counts them until
 * they are written as expired): read after the rows' locks, in a statement of its own, so that it sees every release
 * committed before the locks were granted.
 */
export async function lapsedHolds(
  db: Queryable,
  column: 'variant_id' | 'product_id',
  ids: readonly string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; quantity: number }>(
    `SELECT ${column}::text AS id, sum(quantity)::int AS quantity FROM inventory_reservation_items
      WHERE ${column} = ANY($1::uuid[]) AND active AND expires_at <= now() GROUP BY ${column}`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.quantity]));
}

/** Which of the products have variants (such a product is reserved through a variant). */
export async function productsWithVariants(db: Queryable, productIds: readonly string[]): Promise<Set<string>> {
  if (productIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    `SELECT DISTINCT product_id::text AS id FROM product_variants WHERE product_id = ANY($1::uuid[])`,
    [productIds],
  );
  return new Set(rows.map((row) => row.id));
}

/** The products of the variants (a commit changes a variant's stock, which touches its product: migration 0006). */
export async function productsOfVariants(db: Queryable, variantIds: readonly string[]): Promise<string[]> {
  if (variantIds.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT DISTINCT product_id::text AS id FROM product_variants WHERE id = ANY($1::uuid[])`,
    [variantIds],
  );
  return rows.map((row) => row.id);
}

export async function insertReservation(
  db: Queryable,
  reservation: { id: string; organizationId: string; ttlSeconds: number; items: readonly StoredItem[] },
): Promise<void> {
  const { items } = reservation;
  await db.query(
    `WITH r AS (
       INSERT INTO inventory_reservations (id, organization_id, expires_at)
       VALUES ($1::uuid, $2::uuid, now() + make_interval(secs => $3::int)) RETURNING id, expires_at)
     INSERT INTO inventory_reservation_items (reservation_id, index, variant_id, product_id, quantity, expires_at)
     SELECT r.id, i.index, i.variant_id, i.product_id, i.quantity, r.expires_at
       FROM r, unnest($4::int[], $5::uuid[], $6::uuid[], $7::int[]) AS i(index, variant_id, product_id, quantity)`,
    [
      reservation.id,
      reservation.organizationId,
      reservation.ttlSeconds,
      items.map((item) => item.index),
      items.map((item) => item.variant_id),
      items.map((item) => item.product_id),
      items.map((item) => item.quantity),
    ],
  );
}

/** Adds `quantity` (negative: takes it off) to each row's `reserved`; the CHECK keeps it from going below 0. */
export async function addReserved(db: Queryable, table: StockTable, deltas: readonly { id: string; quantity: number }[]): Promise<void> {
  if (deltas.length === 0) return;
  await db.query(
    `UPDATE ${table} t SET reserved = t.reserved + d.quantity
       FROM unnest($1::uuid[], $2::int[]) AS d(id, quantity) WHERE t.id = d.id`,
    [deltas.map((delta) => delta.id), deltas.map((delta) => delta.quantity)],
  );
}

/**
 * A commit: each row's stock goes down by the quantity for good (tracked stock only, never below 0: a PATCH may have
 * set it below what was reserved) and `reserved` lets go of it. A product's own updated_at moves with its stock.
 */
export async function takeStock(db: Queryable, table: StockTable, deltas: readonly { id: string; quantity: number }[]): Promise<void> {
  if (deltas.length === 0) return;
  const touched = table === 'products' ? `, updated_at = CASE WHEN t.stock IS NULL THEN t.updated_at ELSE now() END` : '';
  await db.query(
    `UPDATE ${table} t SET reserved = t.reserved - d.quantity,
            stock = CASE WHEN t.stock IS NULL THEN NULL ELSE greatest(t.stock - d.quantity, 0) END${touched}
       FROM unnest($1::uuid[], $2::int[]) AS d(id, quantity) WHERE t.id = d.id`,
    [deltas.map((delta) => delta.id), deltas.map((delta) => delta.quantity)],
  );
}

/** Locks the reservation's row (a commit, a release or an expiry of it runs alone); false when there is none. */
export async function lockReservation(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM inventory_reservations WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE`, [
    id,
    organizationId,
  ]);
  return rows.length > 0;
}

export async function findReservation(db: Queryable, organizationId: string, id: string): Promise<ReservationView | null> {
  const { rows } = await db.query<ReservationView>(
    `SELECT r.id::text AS id, r.status, r.expires_at <= now() AS lapsed,
            ${isoInstantSql('r.expires_at')} AS expires_at, ${isoInstantSql('r.created_at')} AS created_at,
            (SELECT json_agg(json_build_object('index', i.index, 'variant_id', i.variant_id, 'product_id', i.product_id,
                                               'quantity', i.quantity) ORDER BY i.index)
               FROM inventory_reservation_items i WHERE i.reservation_id = r.id) AS items
       FROM inventory_reservations r WHERE r.id = $1::uuid AND r.organization_id = $2::uuid`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** Writes the reservations' end: their status, and their items no longer active (they hold nothing from now on). */
export async function endReservations(db: Queryable, ids: readonly string[], status: Exclude<ReservationStatus, 'active'>): Promise<void> {
  await db.query(`UPDATE inventory_reservations SET status = $2 WHERE id = ANY($1::uuid[])`, [ids, status]);
  await db.query(`UPDATE inventory_reservation_items SET active = false WHERE reservation_id = ANY($1::uuid[])`, [ids]);
}

/**
 * Locks up to `limit` of the organization's reservations still written as active whose expires_at has passed, oldest
 * first; one that another transaction holds (being committed, released or expired) is skipped.
 */
export async function lockLapsed(db: Queryable, organizationId: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM inventory_reservations
      WHERE organization_id = $1::uuid AND status = 'active' AND expires_at <= now()
      ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [organizationId, limit],
  );
  return rows.map((row) => row.id);
}

/** Whether the organization has reservations still written as active past their expires_at (inventory_reservations_active_expiry_idx). */
export async function hasLapsed(db: Queryable, organizationId: string): Promise<boolean> {
  const { rows } = await db.query<{ lapsed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM inventory_reservations
                     WHERE organization_id = $1::uuid AND status = 'active' AND expires_at <= now()) AS lapsed`,
    [organizationId],
  );
  return rows[0]?.lapsed ?? false;
}

/** The items of the reservations. */
export async function itemsOf(db: Queryable, reservationIds: readonly string[]): Promise<StoredItem[]> {
  const { rows } = await db.query<StoredItem>(
    `SELECT index, variant_id::text AS variant_id, product_id::text AS product_id, quantity
       FROM inventory_reservation_items WHERE reservation_id = ANY($1::uuid[])`,
    [reservationIds],
  );
  return rows;
}
