-- `updated_since` on the list (API.md, "Change feed, conditional requests and cursors"): the organization's schedules
-- changed since an instant, through this index. Cursor pages walk schedules_organization_idx (organization, created_at, id).
CREATE INDEX schedules_org_updated_idx ON schedules (organization_id, updated_at);
