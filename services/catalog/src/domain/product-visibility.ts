import { isPublishable, type Caller } from '@app/service-kit';

/**
 * Whether the caller may see a product at all (its record, its images): a publishable key, a shop front in a browser,
 * sees published products only (API.md "Keys"); a draft or archived one is its 404, as an unknown one is.
 */
export function visibleTo(caller: Pick<Caller, 'keyType'>, product: { status: string }): boolean {
  return !isPublishable(caller) || product.status === 'published';
}
