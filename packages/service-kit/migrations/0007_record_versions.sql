-- The version of a record (a `version integer NOT NULL DEFAULT 1` column of a service's table), which its ETag is made
-- from (src/http/entity-tags.ts). A service's migration attaches this to each table whose rows are API records:
--
--   CREATE TRIGGER <table>_version BEFORE UPDATE ON <table>
--     FOR EACH ROW [WHEN (<the record's columns> IS DISTINCT FROM …)] EXECUTE FUNCTION bump_record_version();
--
-- An update that does not raise the version itself gets it raised by one, so no write path (a Prisma update, a sync
-- worker, a trigger keeping a count on the row) can change a record while its ETag stays; one that sets it (bookings
-- sets one version per domain event it records) keeps its own. The WHEN clause leaves out tables' bookkeeping columns
-- (leases, retry clocks) that no answer shows, so that they do not make a client's If-Match fail.
CREATE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.version <= OLD.version THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END
$$;
