-- `updated_since` on the list (API.md, "Change feed, conditional requests and cursors"): the organization's calendar
-- connections changed since an instant, through this index. Cursor pages walk calendar_connections_org_idx
-- (organization, created_at, id) from the cursor on.
CREATE INDEX calendar_connections_org_updated_idx ON calendar_connections (organization_id, updated_at);
