-- Webhook endpoints: URLs an organization subscribes to its domain events.
CREATE TABLE webhook_endpoints (
  id                          uuid PRIMARY KEY,
  organization_id             uuid           NOT NULL,
  url                         text           NOT NULL,
  -- Public event types, or '*' for all of them.
  events                      text[]         NOT NULL,
  description                 text,
  enabled                     boolean        NOT NULL DEFAULT true,
  disabled_reason             text,
  -- whsec_ + base64: signs every attempt.
  secret                      text           NOT NULL,
  -- The secret before the last rotation: it signs too (a second signature) until previous_secret_expires_at.
  previous_secret             text,
  previous_secret_expires_at  timestamptz(3),
  -- Start of the current run of failed attempts (null after a success): an endpoint failing for
  -- WEBHOOKS_DISABLE_AFTER_MS is disabled.
  failing_since               timestamptz(3),
  created_at                  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id, created_at, id);

-- One delivery per (endpoint, event): the fan-out of a domain event, or a test. Retries update the row.
CREATE TABLE webhook_deliveries (
  id                    uuid PRIMARY KEY,
  organization_id       uuid           NOT NULL,
  endpoint_id           uuid           NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- The domain event's id: webhook-id of every attempt.
  event_id              uuid           NOT NULL,
  event_type            text           NOT NULL,
  -- The exact JSON body sent (and signed) on every attempt.
  body                  text           NOT NULL,
  status                text           NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts              integer        NOT NULL DEFAULT 0,
  next_attempt_at       timestamptz(3),
  last_attempt_at       timestamptz(3),
  last_response_status  integer,
  last_error            text,
  -- [{at, response_status, error, duration_ms}]: never the response body.
  attempts_log          jsonb          NOT NULL DEFAULT '[]'::jsonb,
  -- The claim of the replica sending it: its result is recorded only while lease_token still matches.
  lease_token           uuid,
  lease_expires_at      timestamptz(3),
  created_at            timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_endpoint_event_key UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
