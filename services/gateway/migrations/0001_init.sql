-- Organizations and their API keys. Only a SHA-256 hash of a key is stored; the key itself is shown once.
CREATE TABLE organizations (
  id         uuid PRIMARY KEY,
  name       text        NOT NULL,
  timezone   text        NOT NULL DEFAULT 'UTC',
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id              uuid PRIMARY KEY,
  organization_id uuid        NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name            text,
  key_hash        text        NOT NULL UNIQUE,
  prefix          text        NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at      timestamptz(3)
);
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id);
