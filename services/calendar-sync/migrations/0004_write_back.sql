-- Write-back (API.md, "Calendar write-back and ICS feeds"): a connection may name the calendar it writes its
-- schedule's bookings to. null = read only.
ALTER TABLE calendar_connections ADD COLUMN write_calendar_id text;

-- The record shows write_calendar_id, so its ETag (version) must rise when it changes: the trigger of 0002 again,
-- with that column in its list.
DROP TRIGGER calendar_connections_version ON calendar_connections;
CREATE TRIGGER calendar_connections_version BEFORE UPDATE ON calendar_connections
  FOR EACH ROW
  WHEN ((OLD.provider, OLD.schedule_id, OLD.calendar_ids, OLD.status, OLD.last_synced_at, OLD.last_error, OLD.write_calendar_id)
        IS DISTINCT FROM (NEW.provider, NEW.schedule_id, NEW.calendar_ids, NEW.status, NEW.last_synced_at, NEW.last_error, NEW.write_calendar_id))
  EXECUTE FUNCTION bump_record_version();

-- One row per (connection, booking): the provider event this service keeps for the booking, and the work pending on
-- it. The bookings consumer writes the desired state here; the writer worker makes the provider match it, so a
-- provider outage delays writes and loses none (an outbox of provider writes).
CREATE TABLE calendar_writes (
  connection_id    uuid        NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
  booking_id       uuid        NOT NULL,
  organization_id  uuid        NOT NULL,
  schedule_id      uuid        NOT NULL,
  calendar_id      text        NOT NULL,          -- the write_calendar_id when the row was made
  booking_version  integer     NOT NULL,          -- newest booking version applied (older events are ignored)
  desired          text        NOT NULL CHECK (desired IN ('present', 'absent')),
  start_time       timestamptz NOT NULL,
  end_time         timestamptz NOT NULL,
  summary          text        NOT NULL,
  attendee_email   text,
  event_id         text,                          -- the provider's event id once known
  status           text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'synced', 'failed')),
  last_error       text,
  attempts         integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,                   -- null = nothing to do
  -- The provider asked us to wait (Retry-After): a booking change meanwhile does not make the row due before this.
  retry_not_before timestamptz,
  lease_token      uuid,
  lease_expires_at timestamptz,
  version          integer     NOT NULL DEFAULT 1, -- rises with every state change (the changed event's order)
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection_id, booking_id)
);
CREATE INDEX calendar_writes_due_idx ON calendar_writes (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX calendar_writes_schedule_idx ON calendar_writes (schedule_id, calendar_id);
