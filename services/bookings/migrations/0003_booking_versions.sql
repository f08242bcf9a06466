-- Every update of a booking raises its version (the kit's bump_record_version(), kit migration 0007), which its ETag is
-- made from: the change use case already sets one version per domain event it records and keeps it; any other write
-- gets one more, so a booking's ETag never stays while the booking changes.
CREATE TRIGGER bookings_version BEFORE UPDATE ON bookings
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
