-- Transactional outbox: a domain event is written in the same transaction as the change it describes,
-- then published to JetStream by the relay (Nats-Msg-Id = id, so a re-publish is deduplicated).
CREATE TABLE outbox (
  id           uuid PRIMARY KEY,
  subject      text        NOT NULL,
  payload      jsonb       NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts     integer     NOT NULL DEFAULT 0,
  last_error   text
);
CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE published_at IS NULL;

-- Inbox: event ids a consumer has applied, written in the same transaction as the effect,
-- so a redelivered event has exactly one effect.
CREATE TABLE inbox (
  consumer     text        NOT NULL,
  event_id     uuid        NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
