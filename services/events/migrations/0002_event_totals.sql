-- The number of events of each organization, kept by statement-level triggers in the same transaction
-- as the insert or delete. An unfiltered list reads its `meta.total` here instead of counting every
-- row of the organization on each request (the hot path of the include_counts benchmark).
CREATE TABLE event_totals (
  organization_id uuid    PRIMARY KEY,
  events          integer NOT NULL DEFAULT 0 CHECK (events >= 0)
);

INSERT INTO event_totals (organization_id, events)
SELECT organization_id, count(*) FROM events GROUP BY organization_id;

-- SET search_path FROM CURRENT pins this schema, so the trigger finds event_totals whatever the
-- search_path of the session that writes the events (e.g. a seed script using qualified names).
CREATE FUNCTION count_events() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO event_totals AS t (organization_id, events)
    SELECT organization_id, count(*) FROM inserted GROUP BY organization_id
    ON CONFLICT (organization_id) DO UPDATE SET events = t.events + EXCLUDED.events;
  ELSE
    UPDATE event_totals AS t SET events = t.events - d.removed
      FROM (SELECT organization_id, count(*) AS removed FROM deleted GROUP BY organization_id) AS d
     WHERE t.organization_id = d.organization_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_count_inserted AFTER INSERT ON events
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_events();
CREATE TRIGGER events_count_deleted AFTER DELETE ON events
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_events();
