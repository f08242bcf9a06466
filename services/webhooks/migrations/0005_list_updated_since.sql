-- `updated_since` on the lists (API.md, "Change feed, conditional requests and cursors"): the organization's webhook
-- endpoints and an endpoint's deliveries changed since an instant, each through an index of updated_at. Cursor pages
-- walk webhook_endpoints_organization_idx and webhook_deliveries_endpoint_idx from the cursor on.
CREATE INDEX webhook_endpoints_org_updated_idx ON webhook_endpoints (organization_id, updated_at);

-- Deliveries had no updated_at. They change in many statements (a claim, an attempt's result, a manual retry), so a
-- trigger keeps it on every update rather than each of them. The deliveries there now count as changed at the
-- migration: a reconciling client must rather see one again than miss a change.
ALTER TABLE webhook_deliveries ADD COLUMN updated_at timestamptz(3) NOT NULL DEFAULT now();

-- The kit's touch_updated_at() (kit migration 0008) keeps it on every update.
CREATE TRIGGER webhook_deliveries_touch_updated_at BEFORE UPDATE ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE INDEX webhook_deliveries_endpoint_updated_idx ON webhook_deliveries (endpoint_id, updated_at);
