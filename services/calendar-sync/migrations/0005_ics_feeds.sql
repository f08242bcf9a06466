-- ICS feeds (API.md, "Calendar write-back and ICS feeds"): at most one secret URL per schedule of an organization.
-- Only the SHA-256 of the URL's token is kept (a database dump gives no feed away); a POST again replaces it, which
-- is what makes the old URL a 404. content_hash and content_changed_at are what the feed last served and since
-- when: its Last-Modified, which a calendar app's If-Modified-Since is judged by (a cancelled booking leaving the
-- feed changes it too, which no booking's updated_at could say).
CREATE TABLE ics_feeds (
  organization_id    uuid        NOT NULL,
  schedule_id        uuid        NOT NULL,
  token_hash         bytea       NOT NULL,
  content_hash       text,
  content_changed_at timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, schedule_id),
  CONSTRAINT ics_feeds_token_hash_key UNIQUE (token_hash)
);
