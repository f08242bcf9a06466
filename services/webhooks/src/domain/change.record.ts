import type { Change, ChangeType } from '@app/contracts';
import { encodeCursor, type FeedPosition } from './change-cursor.js';

/** A stored feed item as the repository reads it. */
export interface FeedItemRow extends FeedPosition {
  type: ChangeType;
  occurred_at: string;
  data: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
}

/** A feed item as GET /api/v1/changes shows it: the event as its webhook carries it, and the cursor after it. */
export function changeRecord(organizationId: string, row: FeedItemRow): Change {
  return {
    id: row.id,
    type: row.type,
    occurred_at: row.occurred_at,
    cursor: encodeCursor(organizationId, row),
    data: row.data,
    ...(row.previous_attributes !== null && { previous_attributes: row.previous_attributes }),
  };
}
