import { centsToDollars, type productCreatedEvent, type productUpdatedEvent } from '@app/contracts';
import { recordEvent } from '@app/service-kit';
import type { Tx } from '../db/client.js';
import { findProduct, type ProductView } from '../db/product.repository.js';
import { eventContext, type Caller } from './context.js';

type ProductEvent = typeof productCreatedEvent | typeof productUpdatedEvent;

/**
 * Reads the product as it is now inside the transaction and records `event` with that state, so the
 * event describes exactly what commits. Returns the state for the response.
 */
export async function recordProductState(tx: Tx, caller: Caller, productId: string, event: ProductEvent): Promise<ProductView> {
  const view = await findProduct(tx, caller.organizationId, productId);
  if (!view) throw new Error(`product ${productId} vanished inside its own transaction`);
  await recordEvent(tx, event, productEventData(view), eventContext(caller));
  return view;
}

function productEventData(view: ProductView) {
  return {
    id: view.id,
    slug: view.slug,
    status: view.status,
    name: view.name,
    price: centsToDollars(view.price_cents),
    stock: view.stock,
    featured_image_id: view.featured_image_id,
  };
}
