-- `updated_since` on the lists (API.md, "Change feed, conditional requests and cursors"): the events and event types
-- an organization changed since an instant, and an event's registrations, each through an index of updated_at. Cursor
-- pages walk the lists' order indexes (events_organization_starts_idx, event_types_organization_list_idx,
-- registrations_event_idx) from the cursor on.
CREATE INDEX events_org_updated_idx ON events (organization_id, updated_at);
CREATE INDEX event_types_org_updated_idx ON event_types (organization_id, updated_at);

-- Registrations had no updated_at. A trigger keeps it on every update (a cancellation is one), whichever statement
-- makes it. The registrations there now count as changed at the migration: cancelled_at says when some changed, but a
-- reconciling client must rather see one again than miss a change.
ALTER TABLE registrations ADD COLUMN updated_at timestamptz(3) NOT NULL DEFAULT now();

-- The kit's touch_updated_at() (kit migration 0008) keeps it on every update.
CREATE TRIGGER registrations_touch_updated_at BEFORE UPDATE ON registrations
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE INDEX registrations_event_updated_idx ON registrations (event_id, updated_at);
