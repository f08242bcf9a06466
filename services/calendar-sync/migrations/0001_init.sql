-- Calendar connections: an external Google or Outlook account whose busy times block a schedule's slots.
CREATE TABLE calendar_connections (
  id                    uuid PRIMARY KEY,
  organization_id       uuid        NOT NULL,
  provider              text        NOT NULL CHECK (provider IN ('google', 'outlook')),
  schedule_id           uuid        NOT NULL,
  calendar_ids          text[]      NOT NULL CHECK (cardinality(calendar_ids) BETWEEN 1 AND 50),
  -- The schedule's zone when connected: Outlook all-day events block that local day.
  time_zone             text        NOT NULL,
  status                text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error', 'reauth_required')),
  last_synced_at        timestamptz,
  last_error            text,
  -- When the last sync attempt (successful or not) finished.
  last_attempted_at     timestamptz,
  -- Tokens: AES-256-GCM (iv | tag | ciphertext) under the key named by token_key_id, never plaintext.
  token_key_id          text        NOT NULL,
  access_token_cipher   bytea       NOT NULL,
  refresh_token_cipher  bytea       NOT NULL,
  token_expires_at      timestamptz NOT NULL,
  -- Sync scheduling. next_sync_at NULL = polling stopped (reauth_required).
  next_sync_at          timestamptz,
  -- The provider asked us to wait (Retry-After); a manual sync does not start before this.
  retry_not_before      timestamptz,
  consecutive_failures  integer     NOT NULL DEFAULT 0,
  sync_requested_at     timestamptz,
  -- The claim of the replica syncing it: a sync only commits while its lease token still matches.
  lease_token           uuid,
  lease_expires_at      timestamptz,
  claimed_at            timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX calendar_connections_org_idx ON calendar_connections (organization_id, created_at, id);
CREATE INDEX calendar_connections_due_idx ON calendar_connections (next_sync_at) WHERE next_sync_at IS NOT NULL;

-- Last known busy windows of each calendar of a connection: a calendar that cannot be read keeps them.
CREATE TABLE calendar_states (
  connection_id  uuid        NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
  calendar_id    text        NOT NULL,
  windows        jsonb       NOT NULL DEFAULT '[]'::jsonb,
  read_at        timestamptz,
  last_error     text,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection_id, calendar_id)
);

-- OAuth states already redeemed by a callback (a state is single use); rows expire with the state.
CREATE TABLE oauth_state_uses (
  nonce       uuid PRIMARY KEY,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_state_uses_expiry_idx ON oauth_state_uses (expires_at);
