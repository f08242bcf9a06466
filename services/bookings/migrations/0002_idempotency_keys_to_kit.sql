-- Idempotency-Keys now live in the kit's idempotency_records (kit migration 0003, applied before this), for every
-- creating route of every service. The keys still within their 24 hours move there, so a retry across the upgrade
-- is still replayed rather than booked twice; the booking route's target and the body hash are unchanged. The key
-- is kept as its digest there; these responses stay unsealed (the kit reads both) until they expire within a day.
INSERT INTO idempotency_records (scope, key, request_target, request_hash, token, locked_until, status_code, response_body, created_at)
SELECT organization_id::text, encode(sha256(convert_to(key, 'UTF8')), 'hex'), 'POST /api/v1/bookings', request_hash, gen_random_uuid(), created_at, status_code,
       response_body::text, created_at
  FROM idempotency_keys
 WHERE created_at > now() - interval '24 hours'
ON CONFLICT (scope, key) DO NOTHING;

DROP TABLE idempotency_keys;
