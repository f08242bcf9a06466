-- Seats, holds, day limits, client secrets and series (API.md "Holds, seats, limits and series", "Keys").
--
-- The guard: at every instant, the seats of a schedule's PENDING/CONFIRMED bookings and active holds overlapping it are
-- at most its seats_per_slot. Two paths keep it (db/seat-guard.ts):
--   * one seat per slot, no hold and no day limit in play: the exclusion constraint, as before, in one statement;
--   * anything else: under the schedule's write lock, a fresh statement sums the overlapping seats and inserts only if
--     they fit (the lock is taken by an earlier statement, so the check's snapshot sees every committed claim).
-- A booking made on a schedule with more than one seat per slot is `shared`: the constraint ignores it (it may overlap
-- others); the summing path judges it.

ALTER TABLE bookings
  ADD COLUMN seats integer NOT NULL DEFAULT 1 CONSTRAINT bookings_seats_check CHECK (seats BETWEEN 1 AND 1000),
  ADD COLUMN shared boolean NOT NULL DEFAULT false,
  ADD COLUMN client_secret_hash bytea,
  ADD COLUMN series_id uuid;

ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
  schedule_id WITH =,
  tstzrange(start_time, end_time, '[)') WITH &&
) WHERE (status IN ('PENDING', 'CONFIRMED') AND NOT shared);

-- The summing path's and the day limit's reads: a schedule's live bookings by time.
CREATE INDEX bookings_schedule_live_idx ON bookings (schedule_id, start_time)
  WHERE status IN ('PENDING', 'CONFIRMED');
CREATE INDEX bookings_series_idx ON bookings (series_id) WHERE series_id IS NOT NULL;

-- Holds: a slot kept while a visitor checks out. Its status is judged at read time from these columns (used: booking_id;
-- released: released_at; expired: expires_at passed; else active), so an expiry needs no write to take effect.
CREATE TABLE holds (
  id              uuid           PRIMARY KEY,
  organization_id uuid           NOT NULL,
  schedule_id     uuid           NOT NULL,
  start_time      timestamptz(3) NOT NULL,
  end_time        timestamptz(3) NOT NULL,
  seats           integer        NOT NULL CHECK (seats BETWEEN 1 AND 1000),
  expires_at      timestamptz(3) NOT NULL,
  released_at     timestamptz(3),
  booking_id      uuid,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT holds_interval_check CHECK (end_time > start_time),
  CONSTRAINT holds_one_use CHECK (booking_id IS NULL OR released_at IS NULL)
);
CREATE INDEX holds_schedule_open_idx ON holds (schedule_id, start_time)
  WHERE released_at IS NULL AND booking_id IS NULL;

-- Per schedule: until when a hold may still be active on it, and whether a shared booking was ever made on it. Read by
-- the one-seat path with INSERT … ON CONFLICT DO UPDATE, which sees (and locks) the latest committed row whatever the
-- statement's snapshot: a hold committed while that statement waited for the schedule lock sends it down the summing
-- path instead of past the hold.
CREATE TABLE schedule_claims (
  schedule_id     uuid PRIMARY KEY,
  holds_until     timestamptz(3),
  shared          boolean NOT NULL DEFAULT false
);

CREATE TABLE booking_series (
  id              uuid           PRIMARY KEY,
  organization_id uuid           NOT NULL,
  schedule_id     uuid           NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now()
);

-- Raised by the one-seat statement when schedule_claims says a hold may be active or a shared booking exists: the
-- whole statement (booking, event, Idempotency-Key response) is undone and the summing path runs instead.
CREATE FUNCTION bookings_needs_seat_sum() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the schedule needs the seat sum' USING ERRCODE = 'BKSUM';
END
$$;
