-- A claim used to count each candidate's in-flight deliveries by reading every delivery its endpoint ever had, and to
-- rank the whole due backlog: with 5 endpoints of 2,600 pending deliveries each, one claim took 18 s (EXPLAIN ANALYZE,
-- 17M buffer hits), so a burst of bookings was delivered at a few per second. A claim now visits each endpoint that has
-- pending deliveries once (a loose scan of the first index), counts its in-flight ones (the second index: only leased
-- rows) and reads its oldest due ones, no more than the per-endpoint concurrency leaves room for.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id) WHERE status = 'pending' AND lease_token IS NOT NULL;
-- It served only the old claim.
DROP INDEX webhook_deliveries_due_idx;
