-- `updated_since` on the list (API.md, "Change feed, conditional requests and cursors"): the organization's bookings
-- changed since an instant, found through this index rather than by reading all of a large organization's bookings.
-- Cursor pages walk bookings_org_start_idx (organization, start_time, id) from the cursor on.
CREATE INDEX bookings_org_updated_idx ON bookings (organization_id, updated_at);
