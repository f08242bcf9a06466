import { centsToDollars, type productCreatedEvent, type productUpdatedEvent } from '@app/contracts';
import { eventContextOf, recordEvent, type Caller } from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import { findProduct, type ProductView } from '../db/product.repository.js';
import { presentProduct } from '../routes/presenters.js';

type ProductEvent = typeof productCreatedEvent | typeof productUpdatedEvent;

/**
 * Reads the product as it is now inside the transaction and records `event` with that state, so the
 * event describes exactly what commits (with the record as `GET` shows it, URLs under `baseUrl`). Returns the state for
 * the response.
 */
export async function recordProductState(
  tx: Db,
  caller: Caller,
  productId: string,
  event: ProductEvent,
  baseUrl: string,
): Promise<ProductView> {
  const view = await findProduct(tx, caller.organizationId, productId);
  if (!view) throw new Error(`product ${productId} vanished inside its own transaction`);
  await recordEvent(tx, event, productEventData(view, baseUrl), eventContextOf(caller));
  return view;
}

function productEventData(view: ProductView, baseUrl: string) {
  return {
    id: view.id,
    slug: view.slug,
    status: view.status,
    name: view.name,
    price: centsToDollars(view.price_cents),
    stock: view.stock,
    featured_image_id: view.featured_image_id,
    record: presentProduct(view, baseUrl),
  };
}
