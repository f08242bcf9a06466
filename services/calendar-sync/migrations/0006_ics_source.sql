-- ICS feeds as busy sources (API.md, "Calendar write-back and ICS feeds"): a connection of provider 'ics' reads one
-- published iCalendar URL and has no OAuth tokens. Its URL is a secret (feed URLs carry their access token), so it is
-- stored like the tokens: AES-256-GCM under the key named by token_key_id, bound to the connection and column.
ALTER TABLE calendar_connections DROP CONSTRAINT calendar_connections_provider_check;
ALTER TABLE calendar_connections ADD CONSTRAINT calendar_connections_provider_check
  CHECK (provider IN ('google', 'outlook', 'ics'));

ALTER TABLE calendar_connections
  ALTER COLUMN access_token_cipher DROP NOT NULL,
  ALTER COLUMN refresh_token_cipher DROP NOT NULL,
  ALTER COLUMN token_expires_at DROP NOT NULL,
  ADD COLUMN ics_url_cipher bytea,
  -- The validators of the feed's last full read, sent back as If-None-Match / If-Modified-Since: a 304 keeps the
  -- windows of that read. Those windows reach ics_covered_until; past it the feed is fetched in full again.
  ADD COLUMN ics_etag text,
  ADD COLUMN ics_last_modified text,
  ADD COLUMN ics_covered_until timestamptz;

-- OAuth connections keep all their token columns; an ICS connection has its URL and no tokens.
ALTER TABLE calendar_connections ADD CONSTRAINT calendar_connections_credentials_check CHECK (
  CASE WHEN provider = 'ics'
    THEN ics_url_cipher IS NOT NULL AND access_token_cipher IS NULL AND refresh_token_cipher IS NULL AND token_expires_at IS NULL
    ELSE ics_url_cipher IS NULL AND access_token_cipher IS NOT NULL AND refresh_token_cipher IS NOT NULL AND token_expires_at IS NOT NULL
  END
);
