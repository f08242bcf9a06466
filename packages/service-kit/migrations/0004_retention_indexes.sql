-- Retention (src/outbox/retention-sweeper.ts): published outbox rows and old inbox rows are deleted in batches, each
-- batch taking the oldest rows from these indexes instead of scanning the table. The outbox index holds published rows
-- only, so the relay's pending index and the sweep never meet; unpublished rows cannot be picked by the sweep.
-- A plain CREATE INDEX (migrations run in a transaction) blocks writes to the table while it builds: about a second
-- per million rows, once.
CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX inbox_processed_idx ON inbox (processed_at);
