-- The change feed (GET /api/v1/changes; docs/architecture.md, "The change feed"). Every public event of every stream,
-- stored once (id = the event id) at its position: the id of the transaction that recorded it and its outbox sequence
-- (the Feed-Tx-Id and Feed-Seq headers). One organization's items are read in position order from the position index;
-- only those below the frontier (the lowest watermark of the streams) are shown, so a page never has a hole that a
-- later event could fill. data and previous_attributes are json (not jsonb): kept as the webhook carries them.
CREATE TABLE feed_items (
  id                  uuid        PRIMARY KEY,
  organization_id     uuid        NOT NULL,
  position_tx         bigint      NOT NULL,
  position_seq        bigint      NOT NULL,
  type                text        NOT NULL,
  occurred_at         timestamptz(3) NOT NULL,
  data                json        NOT NULL,
  previous_attributes json,
  stored_at           timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feed_items_position_idx ON feed_items (organization_id, position_tx, position_seq, id);
-- Retention: the oldest stored items first (kept at least 31 days, src/workers/feed-retention.worker.ts).
CREATE INDEX feed_items_stored_idx ON feed_items (stored_at);

-- One row per stream (its name with the deployment's NATS prefix), written by the one replica holding its lease:
-- sequence is the last stream sequence stored, of the stream created at stream_created (JetStream's `created`: one made
-- again under the name counts from 1 again, and is read from its start); watermark the stream's watermark stored
-- (every event of the stream positioned below it is in feed_items); high_water the highest position stored (while it
-- is at or above the frontier, the service asks the publishers for newer watermarks).
CREATE TABLE feed_streams (
  stream         text        PRIMARY KEY,
  stream_created text,
  sequence       bigint      NOT NULL DEFAULT 0,
  watermark      bigint      NOT NULL DEFAULT 0,
  high_water     bigint      NOT NULL DEFAULT 0,
  lease_holder   uuid,
  lease_until    timestamptz(3)
);
