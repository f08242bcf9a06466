-- A connection's version, which its ETag is made from: raised by the kit's bump_record_version() (kit migration 0007)
-- when a field its record shows changes (a sync's status, last_synced_at and last_error included), and only then:
-- claims, leases and retry clocks change the row on every sync attempt, and must not make a client's If-Match fail.
-- Existing connections start at 1.
ALTER TABLE calendar_connections ADD COLUMN version integer NOT NULL DEFAULT 1;
CREATE TRIGGER calendar_connections_version BEFORE UPDATE ON calendar_connections
  FOR EACH ROW
  WHEN ((OLD.provider, OLD.schedule_id, OLD.calendar_ids, OLD.status, OLD.last_synced_at, OLD.last_error)
        IS DISTINCT FROM (NEW.provider, NEW.schedule_id, NEW.calendar_ids, NEW.status, NEW.last_synced_at, NEW.last_error))
  EXECUTE FUNCTION bump_record_version();
