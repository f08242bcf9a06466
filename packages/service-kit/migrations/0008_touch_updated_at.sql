-- `updated_at` kept by the database, for a service's table whose rows change in many statements (a delivery's claim,
-- its attempts, a retry) where each would otherwise have to set it: lists filter on it (`updated_since`). A service's
-- migration attaches it:
--
--   CREATE TRIGGER <table>_touch_updated_at BEFORE UPDATE ON <table> FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
