-- The change feed's order (docs/architecture.md, "The change feed"): tx_id is the id of the transaction that recorded
-- the event. Ids are handed out cluster-wide, in increasing order, when a transaction first writes, so a change whose
-- request was answered (committed) before another's was sent has the smaller one, in whichever service's schema it is;
-- xid8 never wraps. The relay sends it with each event (and `seq`, the order inside one transaction), and publishes
-- the stream's watermark: the lowest tx_id any row could still be published with (outbox/feed-watermark.ts).
-- Rows written before this migration keep a NULL (adding the column with a volatile default would rewrite the table):
-- they are published without a position and the feed places them when they arrive.
ALTER TABLE outbox ADD COLUMN tx_id xid8;
ALTER TABLE outbox ALTER COLUMN tx_id SET DEFAULT pg_current_xact_id();
-- The watermark's min(tx_id) over the pending rows: one probe of this index.
CREATE INDEX outbox_pending_tx_idx ON outbox (tx_id) WHERE published_at IS NULL AND dead_at IS NULL;
