-- Ticket types, registration statuses confirmed | waitlisted | cancelled, and waitlists (API.md "Ticket types,
-- waitlists, check-in and questions"). Every registration write of an event runs under the event's row lock
-- (lockEvent), which is what keeps both limits (the event's slots, a type's quantity) and the waitlist's order exact
-- under concurrency; the triggers below keep the counts in the same transaction, and the CHECKs refuse any overselling
-- that got past the service.

-- Statuses: `active` becomes `confirmed`. The place-counting trigger is off for the rename: it neither frees nor takes a place.
ALTER TABLE registrations DROP CONSTRAINT registrations_status_check;
ALTER TABLE registrations DISABLE TRIGGER registrations_count_places_changed;
UPDATE registrations SET status = 'confirmed' WHERE status = 'active';
ALTER TABLE registrations ENABLE TRIGGER registrations_count_places_changed;
ALTER TABLE registrations ALTER COLUMN status SET DEFAULT 'confirmed';
ALTER TABLE registrations ADD CONSTRAINT registrations_status_check CHECK (status IN ('confirmed', 'waitlisted', 'cancelled'));

-- Ticket types: `sold` is the places of the type's confirmed registrations, kept by count_places() below.
CREATE TABLE ticket_types (
  id              uuid PRIMARY KEY,
  organization_id uuid           NOT NULL,
  event_id        uuid           NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  name            text           NOT NULL,
  price_cents     bigint         NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
  quantity        integer        CHECK (quantity IS NULL OR quantity >= 1),
  sales_start     timestamptz(3),
  sales_end       timestamptz(3),
  sold            integer        NOT NULL DEFAULT 0,
  version         integer        NOT NULL DEFAULT 1,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT ticket_types_sold_within_quantity CHECK (sold >= 0 AND (quantity IS NULL OR sold <= quantity)),
  CONSTRAINT ticket_types_sales_window CHECK (sales_start IS NULL OR sales_end IS NULL OR sales_end > sales_start)
);
-- The list's order (oldest first) and `updated_since`, per event.
CREATE INDEX ticket_types_event_list_idx ON ticket_types (event_id, created_at, id);
CREATE INDEX ticket_types_event_updated_idx ON ticket_types (event_id, updated_at);

-- `sold` is part of the record: a registration raises the type's version (its ETag) and updated_at, as it does the event's.
CREATE TRIGGER ticket_types_version BEFORE UPDATE ON ticket_types
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER ticket_types_touch_updated_at BEFORE UPDATE ON ticket_types
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- SET NULL: a type is deleted only while none of its registrations is confirmed or waitlisted (checked under the
-- event's lock, 409 TICKET_TYPE_IN_USE); its cancelled registrations stay readable and then show ticket_type_id null.
ALTER TABLE registrations ADD COLUMN ticket_type_id uuid REFERENCES ticket_types (id) ON DELETE SET NULL;
-- 1-based, per event, in arrival order; only while waitlisted (a promotion or a cancellation clears it).
ALTER TABLE registrations ADD COLUMN waitlist_position integer CHECK (waitlist_position >= 1);
ALTER TABLE registrations ADD CONSTRAINT registrations_waitlist_position_iff_waitlisted
  CHECK ((status = 'waitlisted') = (waitlist_position IS NOT NULL));
-- The queue in order (promotion walks it from the head), and no position given twice in an event.
CREATE UNIQUE INDEX registrations_event_waitlist_idx ON registrations (event_id, waitlist_position) WHERE status = 'waitlisted';
-- A type's live registrations (TICKET_TYPE_IN_USE) and the SET NULL of its deletion.
CREATE INDEX registrations_ticket_type_idx ON registrations (ticket_type_id) WHERE ticket_type_id IS NOT NULL;

-- Events: `waitlist`, the places asked for by waitlisted registrations (counts.waitlisted, kept by count_places()),
-- and the last waitlist position given (positions are never reused, so they stay in arrival order).
ALTER TABLE events ADD COLUMN waitlist boolean NOT NULL DEFAULT false;
ALTER TABLE events ADD COLUMN places_waitlisted integer NOT NULL DEFAULT 0 CHECK (places_waitlisted >= 0);
ALTER TABLE events ADD COLUMN waitlist_last_position integer NOT NULL DEFAULT 0;

-- Places taken count confirmed registrations only; waitlisted ones are counted apart; a type's `sold` follows its
-- confirmed ones. SET search_path FROM CURRENT pins this schema, as before (migration 0003).
CREATE OR REPLACE FUNCTION count_places() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD.status = 'confirmed' THEN
      UPDATE events SET places_taken = places_taken - OLD.quantity WHERE id = OLD.event_id;
      IF OLD.ticket_type_id IS NOT NULL THEN
        UPDATE ticket_types SET sold = sold - OLD.quantity WHERE id = OLD.ticket_type_id;
      END IF;
    ELSIF OLD.status = 'waitlisted' THEN
      UPDATE events SET places_waitlisted = places_waitlisted - OLD.quantity WHERE id = OLD.event_id;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF NEW.status = 'confirmed' THEN
      UPDATE events SET places_taken = places_taken + NEW.quantity WHERE id = NEW.event_id;
      IF NEW.ticket_type_id IS NOT NULL THEN
        UPDATE ticket_types SET sold = sold + NEW.quantity WHERE id = NEW.ticket_type_id;
      END IF;
    ELSIF NEW.status = 'waitlisted' THEN
      UPDATE events SET places_waitlisted = places_waitlisted + NEW.quantity WHERE id = NEW.event_id;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER registrations_count_places_changed ON registrations;
CREATE TRIGGER registrations_count_places_changed AFTER UPDATE OF status, quantity, event_id, ticket_type_id ON registrations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.quantity IS DISTINCT FROM NEW.quantity
                     OR OLD.event_id IS DISTINCT FROM NEW.event_id OR OLD.ticket_type_id IS DISTINCT FROM NEW.ticket_type_id)
  EXECUTE FUNCTION count_places();
