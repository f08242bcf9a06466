-- The version of each record, which its ETag is made from: raised by every update (the kit's bump_record_version(),
-- kit migration 0007), whichever statement makes it. An event's places taken are part of its record (`counts`), and
-- count_places() (migration 0003) writes them on the event's row, so a registration or a cancellation raises the
-- event's version too. Existing rows start at 1.
ALTER TABLE event_types ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE events ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE registrations ADD COLUMN version integer NOT NULL DEFAULT 1;

CREATE TRIGGER event_types_version BEFORE UPDATE ON event_types
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER events_version BEFORE UPDATE ON events
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER registrations_version BEFORE UPDATE ON registrations
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
