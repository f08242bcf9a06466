-- The provider events calendar-sync keeps for bookings (API.md "Calendar write-back"): a projection of its
-- `calendar.booking_event.changed` events (src/calendar-events.consumer.ts), one row per booking and writing
-- connection, holding the newest `version` of each (an older or replayed event changes nothing). The record's
-- `calendar_event` shows the row of the oldest connection: the first to arrive (`created_at`, set by the clock at
-- the insert, so rows made in one transaction keep their order), then `connection_id`.
-- A connection's removal (`calendar.connection.removed`) drops its rows: the record then shows the next one, or null.
-- Not part of the booking: writing here leaves its version (its ETag) and updated_at as they were.
CREATE TABLE booking_calendar_events (
  booking_id    uuid           NOT NULL,
  connection_id uuid           NOT NULL,
  provider      text           NOT NULL,
  event_id      text,
  status        text           NOT NULL CHECK (status IN ('pending', 'synced', 'failed')),
  last_error    text,
  version       integer        NOT NULL CHECK (version >= 1),
  created_at    timestamptz    NOT NULL DEFAULT clock_timestamp(),
  updated_at    timestamptz    NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (booking_id, connection_id)
);
-- A removal's delete.
CREATE INDEX booking_calendar_events_connection_idx ON booking_calendar_events (connection_id);
