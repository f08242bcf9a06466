import { centsToDollars, type ProductRecord, type productCreatedEvent, type productUpdatedEvent } from '@app/contracts';
import { eventContextOf, recordEvent, type Caller, type Versioned } from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import { findProduct, type ProductView } from '../db/product.repository.js';
import { productRecord, productVersion } from '../domain/product.record.js';

type ProductEvent = typeof productCreatedEvent | typeof productUpdatedEvent;

/**
 * Reads the product as it is now inside the transaction and records `event` with that state, so the
 * event describes exactly what commits (with the record as `GET` shows it, URLs under `baseUrl`). Returns that record,
 * built once for the event and the response, with the versions of its ETag.
 */
export async function recordProductState(
  tx: Db,
  caller: Caller,
  productId: string,
  event: ProductEvent,
  baseUrl: string,
): Promise<Versioned<ProductRecord>> {
  const view = await findProduct(tx, caller.organizationId, productId);
  if (!view) throw new Error(`product ${productId} vanished inside its own transaction`);
  const record = productRecord(view, baseUrl);
  await recordEvent(tx, event, productEventData(view, record), eventContextOf(caller));
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
