-- A schedule's version, which its ETag is made from: raised by every update (the kit's bump_record_version(), kit
-- migration 0007), whichever statement makes it. Existing schedules start at 1.
ALTER TABLE schedules ADD COLUMN version integer NOT NULL DEFAULT 1;
CREATE TRIGGER schedules_version BEFORE UPDATE ON schedules
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
