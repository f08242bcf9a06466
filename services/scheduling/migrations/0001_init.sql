-- btree_gist lets one GiST index combine the schedule id (equality) with a time range (overlap).
-- Uses btree_gist (in public), created once per database by the migration step (the kit's DATABASE_EXTENSIONS).

CREATE TABLE schedules (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid           NOT NULL,
  name            text           NOT NULL,
  timezone        text           NOT NULL,
  slot_duration   integer        NOT NULL CHECK (slot_duration BETWEEN 5 AND 1440),
  -- NULL: the step between slot starts follows slot_duration (also after slot_duration changes).
  slot_interval   integer        CHECK (slot_interval BETWEEN 5 AND 1440),
  is_active       boolean        NOT NULL DEFAULT true,
  -- [{day, start, end}] and [{date, intervals: [{start, end}]}], validated by the API, local to timezone.
  availability    jsonb          NOT NULL,
  date_overrides  jsonb          NOT NULL DEFAULT '[]',
  buffer_before   integer        NOT NULL DEFAULT 0 CHECK (buffer_before >= 0),
  buffer_after    integer        NOT NULL DEFAULT 0 CHECK (buffer_after >= 0),
  minimum_notice  integer        NOT NULL DEFAULT 0 CHECK (minimum_notice >= 0),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX schedules_organization_idx ON schedules (organization_id, created_at, id);

-- Projection of the bookings service's bookings (fed by bookings.booking.* events). `version` orders
-- the events of one booking: an older or duplicate event never overwrites a newer state.
CREATE TABLE booking_intervals (
  booking_id  uuid PRIMARY KEY,
  schedule_id uuid           NOT NULL,
  status      text           NOT NULL,
  start_time  timestamptz(3) NOT NULL,
  end_time    timestamptz(3) NOT NULL,
  version     integer        NOT NULL,
  updated_at  timestamptz(3) NOT NULL DEFAULT now()
);
-- Only PENDING and CONFIRMED bookings block slots; slot generation reads them by schedule and time range.
CREATE INDEX booking_intervals_blocking_idx ON booking_intervals
  USING gist (schedule_id, tstzrange(start_time, end_time)) WHERE status IN ('PENDING', 'CONFIRMED');

-- One row per calendar connection seen: the newest sync applied (later syncs only) and, once the
-- connection is removed, a tombstone so a late sync event cannot bring its windows back.
CREATE TABLE calendar_connections (
  connection_id  uuid PRIMARY KEY,
  schedule_id    uuid           NOT NULL,
  last_synced_at timestamptz(3),
  removed_at     timestamptz(3)
);

-- Busy windows of connected calendars (fed by calendar.busy.updated events).
CREATE TABLE busy_windows (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  connection_id uuid           NOT NULL,
  schedule_id   uuid           NOT NULL,
  start_time    timestamptz(3) NOT NULL,
  end_time      timestamptz(3) NOT NULL,
  CHECK (end_time > start_time)
);
CREATE INDEX busy_windows_schedule_idx ON busy_windows USING gist (schedule_id, tstzrange(start_time, end_time));
CREATE INDEX busy_windows_connection_idx ON busy_windows (connection_id, start_time);
