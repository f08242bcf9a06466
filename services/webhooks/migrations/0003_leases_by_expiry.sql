-- A claim counts each endpoint's deliveries in flight. The leased index held only endpoint_id, so that count read every
-- row version ever leased since the last vacuum: a claim's lease and its success each write a new version, and a
-- bitmap scan cannot mark the dead ones. Under a burst of 40,000 deliveries to 5 endpoints, that was 11,000 heap pages
-- and 6 ms per claim, a claim's cost growing with the deliveries made since the last vacuum. With the lease's expiry in
-- the key, the count reads only leases that have not run out yet (those of the last lease period), by an index scan
-- that marks the dead versions it meets.
DROP INDEX webhook_deliveries_leased_idx;
CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id, lease_expires_at)
  WHERE status = 'pending' AND lease_token IS NOT NULL;
