-- Isolation between organizations on the async path (src/outbox/relay.ts):
-- - organization_id: the relay claims fairly across organizations, each one's rows in their own order, so one
--   organization's burst cannot hold back another's events. Rows written before this migration take the organization
--   of their envelope (the nil uuid when it has none: such rows share one turn).
-- - dead_at: a row the broker refuses for good (too large) or that fails again and again is set aside here with its
--   last_error, and a dead letter names it on the service's dead-letter stream; it never again delays the rows behind it.
ALTER TABLE outbox ADD COLUMN organization_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
                   ADD COLUMN dead_at timestamptz;
ALTER TABLE outbox ALTER COLUMN organization_id DROP DEFAULT;
UPDATE outbox SET organization_id = (payload ->> 'organization_id')::uuid
 WHERE published_at IS NULL AND payload ->> 'organization_id' ~ '^[0-9a-fA-F-]{36}$';
DROP INDEX outbox_pending_idx;
-- One probe per organization finds the organizations with pending rows (a loose index scan), then each one's oldest.
CREATE INDEX outbox_pending_idx ON outbox (organization_id, seq) WHERE published_at IS NULL AND dead_at IS NULL;
CREATE INDEX outbox_dead_idx ON outbox (dead_at) WHERE dead_at IS NOT NULL;
