import { randomUUID } from 'node:crypto';
import { inventoryReservationCommittedEvent, type CreateReservationBody, type ReservationRecord } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  invalidInput,
  recordEvent,
  recordId,
  withTransaction,
  type Caller,
  type Queryable,
} from '@app/service-kit';
import * as reservations from '../db/reservation.repository.js';
import { demandsOf, shortages, type Demand } from '../domain/reservation-demand.js';
import { reservationRecord, shownStatus, type StoredItem } from '../domain/reservation.record.js';
import { productNotFound, reservationNotFound, variantNotFound, type UseCaseContext } from './context.js';

/** How many lapsed reservations each new one of the organization writes as expired (so they never pile up). */
const LAPSED_PER_RESERVATION = 20;

/** The items with their ids checked (a malformed one is the 404 of an unknown one) and in canonical form. */
function storedItems(body: CreateReservationBody): StoredItem[] {
  return body.items.map((item, index) => ({
    index,
    variant_id: item.variant_id === undefined ? null : recordId(item.variant_id, variantNotFound),
    product_id: item.product_id === undefined ? null : recordId(item.product_id, productNotFound),
    quantity: item.quantity,
  }));
}

const ids = (demands: readonly Demand[], kind: Demand['kind']) =>
  demands.filter((demand) => demand.kind === kind).map((demand) => demand.id);

/**
 * Reserves every item or none, in one transaction: the items' rows are locked in id order (products, then variants),
 * what each has available is read under the locks, and either every demand fits (then `reserved` grows by it and the
 * reservation is written) or the answer is 409 OUT_OF_STOCK naming every short item. Two reservations of one item
 * therefore run one after the other, and `available` never goes below 0 under any concurrency.
 */
export async function createReservation(ctx: UseCaseContext, caller: Caller, body: CreateReservationBody): Promise<ReservationRecord> {
  const items = storedItems(body);
  const demands = demandsOf(items);
  await expireLapsed(ctx, caller);
  return withTransaction(ctx.pool, async (tx) => {
    const products = await reservations.lockStock(tx, 'products', caller.organizationId, ids(demands, 'product'));
    if (products.length < ids(demands, 'product').length) throw productNotFound();
    const withVariants = await reservations.productsWithVariants(tx, ids(demands, 'product'));
    const parent = items.find((item) => item.product_id !== null && withVariants.has(item.product_id));
    if (parent)
      throw invalidInput(`items.${parent.index}.product_id`, `items.${parent.index}.product_id has variants: reserve one of them`);
    const variants = await reservations.lockStock(tx, 'product_variants', caller.organizationId, ids(demands, 'variant'));
    if (variants.length < ids(demands, 'variant').length) throw variantNotFound();

    const lapsed = {
      product: await reservations.lapsedHolds(tx, 'product_id', ids(demands, 'product')),
      variant: await reservations.lapsedHolds(tx, 'variant_id', ids(demands, 'variant')),
    };
    const rows = new Map([
      ...products.map((row) => [`product:${row.id}`, row] as const),
      ...variants.map((row) => [`variant:${row.id}`, row] as const),
    ]);
    const short = shortages(demands, (demand) => {
      const row = rows.get(`${demand.kind}:${demand.id}`);
      if (!row || row.stock === null) return null;
      return Math.max(row.stock - row.reserved + (lapsed[demand.kind].get(demand.id) ?? 0), 0);
    });
    if (short.length > 0)
      throw new AppError(
        'OUT_OF_STOCK',
        `Not enough stock: ${short.map((item) => `${item.path} (${item.message})`).join(', ')}`,
        undefined,
        short,
      );

    const id = randomUUID();
    await reservations.insertReservation(tx, { id, organizationId: caller.organizationId, ttlSeconds: body.ttl_seconds, items });
    await reservations.addReserved(tx, 'products', quantities(demands, 'product'));
    await reservations.addReserved(tx, 'product_variants', quantities(demands, 'variant'));
    return read(tx, caller, id);
  });
}

export async function getReservation(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<ReservationRecord> {
  return read(ctx.pool, caller, recordId(rawId, reservationNotFound));
}

/** Takes the reserved stock for good: `committed`, with `catalog.inventory_reservation.committed`. */
export async function commitReservation(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<ReservationRecord> {
  const record = await end(ctx, caller, rawId, 'committed', async (tx, record) => {
    await recordEvent(tx, inventoryReservationCommittedEvent, { id: record.id, record }, eventContextOf(caller));
  });
  ctx.relay.wake();
  return record;
}

/** Gives the reserved stock back: `released`. */
export function releaseReservation(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<ReservationRecord> {
  return end(ctx, caller, rawId, 'released');
}

/**
 * Ends an active reservation (its row locked: a racing commit, release or expiry of it waits, then sees it ended);
 * one that is not active, expired included, is 400 INVALID_TRANSITION and nothing changes.
 */
async function end(
  ctx: UseCaseContext,
  caller: Caller,
  rawId: string,
  status: 'committed' | 'released',
  after?: (tx: Queryable, record: ReservationRecord) => Promise<void>,
): Promise<ReservationRecord> {
  const id = recordId(rawId, reservationNotFound);
  return withTransaction(ctx.pool, async (tx) => {
    if (!(await reservations.lockReservation(tx, caller.organizationId, id))) throw reservationNotFound();
    const view = await reservations.findReservation(tx, caller.organizationId, id);
    if (!view) throw reservationNotFound();
    const from = shownStatus(view);
    if (from !== 'active') throw new AppError('INVALID_TRANSITION', `Cannot transition from ${from} to ${status}`);
    await letGo(tx, caller, view.items, status === 'committed');
    await reservations.endReservations(tx, [id], status);
    const record = await read(tx, caller, id);
    await after?.(tx, record);
    return record;
  });
}

/**
 * Takes the items' quantities off `reserved` (and, for a commit, off the stock), under the locks of their rows: the
 * products first (for a commit also the variants' products, which the change of a variant's stock touches), then the
 * variants, each by id.
 */
async function letGo(tx: Queryable, caller: Caller, items: readonly StoredItem[], commit: boolean): Promise<void> {
  const demands = demandsOf(items);
  const parents = commit ? await reservations.productsOfVariants(tx, ids(demands, 'variant')) : [];
  await reservations.lockStock(tx, 'products', caller.organizationId, [...new Set([...ids(demands, 'product'), ...parents])].sort());
  await reservations.lockStock(tx, 'product_variants', caller.organizationId, ids(demands, 'variant'));
  for (const [table, kind] of [
    ['products', 'product'],
    ['product_variants', 'variant'],
  ] as const) {
    const deltas = quantities(demands, kind);
    if (commit) await reservations.takeStock(tx, table, deltas);
    else
      await reservations.addReserved(
        tx,
        table,
        deltas.map((delta) => ({ ...delta, quantity: -delta.quantity })),
      );
  }
}

/**
 * Writes lapsed reservations of the organization as expired and takes them out of `reserved`. Reads never wait for
 * this (they subtract what lapsed ones hold, db/stock-sql.ts); it only keeps their number small. Its own transaction,
 * before the reservation's, keeps the lock order (a reservation's row before its items' rows).
 */
async function expireLapsed(ctx: UseCaseContext, caller: Caller): Promise<void> {
  // Usually there are none: one indexed look, no transaction.
  if (!(await reservations.hasLapsed(ctx.pool, caller.organizationId))) return;
  await withTransaction(ctx.pool, async (tx) => {
    const lapsed = await reservations.lockLapsed(tx, caller.organizationId, LAPSED_PER_RESERVATION);
    if (lapsed.length === 0) return;
    await letGo(tx, caller, await reservations.itemsOf(tx, lapsed), false);
    await reservations.endReservations(tx, lapsed, 'expired');
  });
}

function quantities(demands: readonly Demand[], kind: Demand['kind']): { id: string; quantity: number }[] {
  return demands.filter((demand) => demand.kind === kind).map((demand) => ({ id: demand.id, quantity: demand.quantity }));
}

async function read(db: Queryable, caller: Caller, id: string): Promise<ReservationRecord> {
  const view = await reservations.findReservation(db, caller.organizationId, id);
  if (!view) throw reservationNotFound();
  return reservationRecord(view);
}
