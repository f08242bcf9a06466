-- Event types: kinds of meeting that can be booked. The slug is unique per organization (an index, so
-- concurrent creates with one slug cannot both succeed).
CREATE TABLE event_types (
  id                uuid PRIMARY KEY,
  organization_id   uuid           NOT NULL,
  title             text           NOT NULL,
  slug              text           NOT NULL,
  description       text,
  duration          integer        NOT NULL CHECK (duration > 0),
  location_type     text           NOT NULL DEFAULT 'video' CHECK (location_type IN ('in_person', 'phone', 'video', 'custom')),
  location_details  text,
  color             text,
  requires_approval boolean        NOT NULL DEFAULT false,
  is_active         boolean        NOT NULL DEFAULT true,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  updated_at        timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX event_types_organization_slug_key ON event_types (organization_id, slug);
CREATE INDEX event_types_organization_list_idx ON event_types (organization_id, is_active, created_at, id);

-- Events: dated happenings. The local fields (start_date, start_time, end_time, timezone) are what the
-- client gave; starts_at/ends_at are the UTC instants derived from them (RFC 5545 rules, domain/event-time.ts).
CREATE TABLE events (
  id              uuid PRIMARY KEY,
  organization_id uuid           NOT NULL,
  site_id         text,
  title           text           NOT NULL,
  description     text,
  start_date      date           NOT NULL,
  start_time      text           CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  end_time        text           CHECK (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  timezone        text           NOT NULL,
  starts_at       timestamptz(3) NOT NULL,
  ends_at         timestamptz(3) CHECK (ends_at >= starts_at),
  location        text,
  cost_cents      bigint         NOT NULL DEFAULT 0 CHECK (cost_cents >= 0),
  slots           integer        CHECK (slots >= 0),
  status          text           NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'cancelled')),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX events_organization_starts_idx ON events (organization_id, starts_at, id);
CREATE INDEX events_organization_date_idx ON events (organization_id, start_date);
-- upcoming/past compare the end of the event (or its start when it has no end) with now.
CREATE INDEX events_organization_until_idx ON events (organization_id, (COALESCE(ends_at, starts_at)));

-- Registrations: places taken at an event. Capacity is checked while the event row is locked
-- (SELECT … FOR UPDATE), so concurrent registrations never exceed `slots`.
CREATE TABLE registrations (
  id              uuid PRIMARY KEY,
  organization_id uuid           NOT NULL,
  event_id        uuid           NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  name            text           NOT NULL,
  email           text           NOT NULL,
  quantity        integer        NOT NULL CHECK (quantity > 0),
  status          text           NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  cancelled_at    timestamptz(3)
);
CREATE INDEX registrations_event_idx ON registrations (event_id, created_at, id);
-- Places taken per event (include_counts, capacity checks) as an index-only sum.
CREATE INDEX registrations_event_active_idx ON registrations (event_id) INCLUDE (quantity) WHERE status = 'active';
