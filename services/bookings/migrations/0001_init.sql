-- Bookings against schedules. The database guards the one invariant that matters under concurrency:
-- two live (PENDING/CONFIRMED) bookings of one schedule never overlap. Intervals are half-open, so
-- touching bookings (one ends when the next starts) are allowed.
-- Uses btree_gist, pg_trgm (in public), created once per database by the migration step (the kit's DATABASE_EXTENSIONS).

CREATE TABLE bookings (
  id                uuid PRIMARY KEY,
  organization_id   uuid           NOT NULL,
  schedule_id       uuid           NOT NULL,
  event_type_id     uuid,
  start_time        timestamptz(3) NOT NULL,
  end_time          timestamptz(3) NOT NULL,
  status            text           NOT NULL DEFAULT 'PENDING'
                    CHECK (status IN ('PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')),
  title             text,
  timezone          text,
  location          text,
  location_type     text CHECK (location_type IN ('in_person', 'phone', 'video', 'custom')),
  metadata          jsonb,
  attendee_name     text           NOT NULL,
  attendee_email    text           NOT NULL,
  attendee_phone    text,
  attendee_timezone text,
  attendee_notes    text,
  -- Grows by one with every change; published with each domain event so projections apply only newer state.
  version           integer        NOT NULL DEFAULT 1,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  updated_at        timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT bookings_interval_check CHECK (end_time > start_time),
  CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
    schedule_id WITH =,
    tstzrange(start_time, end_time, '[)') WITH &&
  ) WHERE (status IN ('PENDING', 'CONFIRMED'))
);

-- The list is always scoped to one organization and sorted by start_time; each filter has its own index.
CREATE INDEX bookings_org_start_idx ON bookings (organization_id, start_time, id);
CREATE INDEX bookings_org_schedule_start_idx ON bookings (organization_id, schedule_id, start_time);
CREATE INDEX bookings_org_event_type_start_idx ON bookings (organization_id, event_type_id, start_time)
  WHERE event_type_id IS NOT NULL;
CREATE INDEX bookings_org_status_start_idx ON bookings (organization_id, status, start_time);
-- Case-insensitive substring search on attendee_email (ILIKE '%…%').
CREATE INDEX bookings_attendee_email_trgm_idx ON bookings USING gin (attendee_email public.gin_trgm_ops);

-- Stripe-style idempotency keys of POST /api/v1/bookings: the first response is stored with a hash of the
-- request body and replayed for 24 hours. The primary key makes concurrent requests with one key wait for
-- the first and then replay it.
CREATE TABLE idempotency_keys (
  organization_id uuid           NOT NULL,
  key             text           NOT NULL,
  request_hash    text           NOT NULL,
  status_code     integer        NOT NULL,
  response_body   jsonb          NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
