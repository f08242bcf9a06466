-- Key kinds of API.md "Keys": secret (every key so far), restricted (scopes) and publishable (allowed origins).
-- `prefix` of a new key is its first 12 characters (older keys keep their 10). `last_used_at` is written at most
-- once a minute per key; `updated_at` moves on creation and revocation only, for the list's `updated_since`.
ALTER TABLE api_keys
  ADD COLUMN type            text NOT NULL DEFAULT 'secret',
  ADD COLUMN scopes          text[],
  ADD COLUMN allowed_origins text[],
  ADD COLUMN last_used_at    timestamptz(3),
  ADD COLUMN updated_at      timestamptz(3) NOT NULL DEFAULT now();

UPDATE api_keys SET updated_at = coalesce(revoked_at, created_at);

ALTER TABLE api_keys
  ADD CONSTRAINT api_keys_type_check CHECK (type IN ('secret', 'restricted', 'publishable')),
  -- scopes only on restricted keys (at least one), origins only on publishable keys (1 to 20).
  ADD CONSTRAINT api_keys_scopes_check CHECK (
    (type = 'restricted') = (scopes IS NOT NULL) AND (scopes IS NULL OR cardinality(scopes) >= 1)),
  ADD CONSTRAINT api_keys_allowed_origins_check CHECK (
    (type = 'publishable') = (allowed_origins IS NOT NULL)
    AND (allowed_origins IS NULL OR cardinality(allowed_origins) BETWEEN 1 AND 20));

-- The organization's live keys, in the list's order (created_at, id).
CREATE INDEX api_keys_live_idx ON api_keys (organization_id, created_at, id) WHERE revoked_at IS NULL;
