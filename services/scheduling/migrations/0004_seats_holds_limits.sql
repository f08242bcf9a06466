-- API.md "Holds, seats, limits and series": seats per slot, a day limit, a booking horizon and public booking.
-- slot_interval stays NULL unless POST or PATCH set it, which is how eventTypeId slots know whether to step by it.
ALTER TABLE schedules
  ADD COLUMN seats_per_slot       integer NOT NULL DEFAULT 1 CHECK (seats_per_slot BETWEEN 1 AND 1000),
  ADD COLUMN max_bookings_per_day integer CHECK (max_bookings_per_day >= 1),
  ADD COLUMN booking_horizon_days integer CHECK (booking_horizon_days BETWEEN 1 AND 730),
  ADD COLUMN public_booking       boolean NOT NULL DEFAULT false;

-- Seats each projected booking takes (events older than seats carry none: one seat).
ALTER TABLE booking_intervals ADD COLUMN seats integer NOT NULL DEFAULT 1 CHECK (seats >= 1);

-- Projection of the bookings service's holds (bookings.hold.created / bookings.hold.ended). A hold takes its seats
-- while status = 'active' AND expires_at > now at read time: an expiry sends no event, so the reader's clock ends it.
-- An ended hold never comes back: the upsert only moves a row away from 'active'.
CREATE TABLE hold_intervals (
  hold_id     uuid PRIMARY KEY,
  schedule_id uuid           NOT NULL,
  status      text           NOT NULL,
  start_time  timestamptz(3) NOT NULL,
  end_time    timestamptz(3) NOT NULL,
  seats       integer        NOT NULL CHECK (seats >= 1),
  expires_at  timestamptz(3) NOT NULL,
  updated_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX hold_intervals_active_idx ON hold_intervals
  USING gist (schedule_id, tstzrange(start_time, end_time)) WHERE status = 'active';

-- Projection of the events service's event types (events.event_type.*), for `eventTypeId` on slots: the duration
-- and whether the type is active, by organization. `source_updated_at` (the record's updated_at) orders the events of
-- one type; `deleted` is a tombstone that a late created/updated event cannot undo.
CREATE TABLE event_types (
  id                uuid PRIMARY KEY,
  organization_id   uuid           NOT NULL,
  duration          integer        NOT NULL,
  is_active         boolean        NOT NULL,
  deleted           boolean        NOT NULL DEFAULT false,
  source_updated_at timestamptz(3) NOT NULL
);
