import { centsToDollars, type ProductRecord, type productCreatedEvent, type productUpdatedEvent } from '@app/contracts';
import { eventContextOf, previousAttributes, recordEvent, type Caller, type Versioned } from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import { findProduct, type ProductView, type VersionedProductView } from '../db/product.repository.js';
import { productRecord, productVersion } from '../domain/product.record.js';

type ProductEvent = typeof productCreatedEvent | typeof productUpdatedEvent;

/** The product's record as `GET` shows it now inside the transaction (URLs under `baseUrl`). */
export async function readProductRecord(tx: Db, caller: Caller, productId: string, baseUrl: string): Promise<ProductRecord> {
  return (await readProduct(tx, caller, productId, baseUrl)).record;
}

export async function readProduct(
  tx: Db,
  caller: Caller,
  productId: string,
  baseUrl: string,
): Promise<{ view: VersionedProductView; record: ProductRecord }> {
  const view = await findProduct(tx, caller.organizationId, productId);
  if (!view) throw new Error(`product ${productId} vanished inside its own transaction`);
  return { view, record: productRecord(view, baseUrl) };
}

/**
 * Reads the product as it is now inside the transaction and records `event` with that state, so the
 * event describes exactly what commits (with the record as `GET` shows it, URLs under `baseUrl`). Returns that record,
 * built once for the event and the response, with the versions of its ETag. An update passes the record as it was
 * `before` (read under the product's row lock), which its event carries as previous_attributes.
 */
export async function recordProductState(
  tx: Db,
  caller: Caller,
  productId: string,
  event: ProductEvent,
  baseUrl: string,
  before?: ProductRecord,
): Promise<Versioned<ProductRecord>> {
  const { view, record } = await readProduct(tx, caller, productId, baseUrl);
  const previous = before && { previous_attributes: previousAttributes(before, record) };
  await recordEvent(tx, event, { ...productEventData(view, record), ...previous }, eventContextOf(caller));
  return { record, version: productVersion(view) };
}

function productEventData(view: ProductView, record: ProductRecord) {
  return {
    id: view.id,
    slug: view.slug,
    status: view.status,
    name: view.name,
    price: centsToDollars(view.price_cents),
    stock: view.stock,
    featured_image_id: view.featured_image_id,
    record,
  };
}
