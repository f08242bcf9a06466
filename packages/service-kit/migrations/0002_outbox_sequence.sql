-- Publication order: the order rows were inserted (a transaction that waited for a lock inserts after the one
-- it waited for), not the transactions' start times that created_at holds.
ALTER TABLE outbox ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX outbox_pending_idx;
CREATE INDEX outbox_pending_idx ON outbox (seq) WHERE published_at IS NULL;
