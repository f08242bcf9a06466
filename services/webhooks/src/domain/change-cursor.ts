import { isUuid } from '@app/contracts';
import { decodeListCursor, encodeListCursor, type CursorScope } from '@app/service-kit';

/** Where an item stands in its organization's feed: its transaction id, its sequence in it, and its id. */
export interface FeedPosition {
  tx: string;
  seq: string;
  id: string;
}

/**
 * A feed cursor is a list cursor of the kit's (versioned, opaque, with a digest of its scope and keys) whose keys are
 * the item's position: one of another organization, or one whose position was edited, is CURSOR_INVALID. The `types`
 * filter is no part of it: an item's cursor resumes after that item whatever types are asked for next.
 */
const scopeOf = (organizationId: string): CursorScope => ({ list: 'changes', organizationId, filters: {} });
const isDigits = (text: string) => /^\d{1,20}$/.test(text);
const POSITION_KEYS = [isDigits, isDigits, isUuid];

/** The opaque cursor after the item at `position` of the organization's feed. */
export function encodeCursor(organizationId: string, position: FeedPosition): string {
  return encodeListCursor(scopeOf(organizationId), [position.tx, position.seq, position.id]);
}

/** The position a client's `after` names in the organization's feed; 400 CURSOR_INVALID when it is none of its cursors. */
export function decodeCursor(organizationId: string, after: string): FeedPosition {
  const [tx = '', seq = '', id = ''] = decodeListCursor(scopeOf(organizationId), after, POSITION_KEYS, 'after');
  return { tx, seq, id: id.toLowerCase() };
}
