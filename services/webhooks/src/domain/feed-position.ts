/** An event's position in the feed: the id of the transaction that recorded it, and its sequence in that outbox. */
export interface EventPosition {
  tx: bigint;
  seq: bigint;
}

/**
 * Where the feed stores an event read off its stream after the stream's watermark `watermark`. At its own position,
 * unless it has none (written before the outbox kept transaction ids) or the watermark already passed it: a late event
 * (a set-aside event replayed from the dead letters, a re-publish after JetStream's duplicate window). Readers may
 * already be past its own position, so it goes at the watermark: at or above the frontier, so no reader has passed it.
 */
export function feedPlacement(position: EventPosition | null, watermark: bigint): EventPosition {
  if (position && position.tx >= watermark) return position;
  return { tx: watermark, seq: position?.seq ?? 0n };
}
