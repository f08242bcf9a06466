-- `updated_since` on the lists (API.md, "Change feed, conditional requests and cursors"): the organization's products
-- and media files changed since an instant, each through an index of (organization, updated_at). Cursor pages walk
-- the (organization, created_at DESC, id DESC) indexes from the cursor on.
CREATE INDEX products_org_updated_idx ON products (organization_id, updated_at);

-- Media files had no updated_at. A trigger keeps it on every update, whichever statement makes it. The files there
-- now count as changed at the migration: nothing says when their alt text last changed, and a reconciling client
-- must rather see a file again than miss a change.
ALTER TABLE media_files ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- The kit's touch_updated_at() (kit migration 0008) keeps it on every update.
CREATE TRIGGER media_files_touch_updated_at BEFORE UPDATE ON media_files
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE INDEX media_files_org_updated_idx ON media_files (organization_id, updated_at);
