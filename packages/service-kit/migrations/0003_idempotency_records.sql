-- Idempotency-Key of every creating POST (src/http/idempotency): the key is reserved before its first request runs
-- (token, locked_until) and holds that request's response afterwards (status_code, response_body), replayed to the
-- same request for 24 hours. scope is whose key it is: an organization id, or `token:` + SHA-256 of the admin token.
-- A reservation whose holder stopped renewing it (a crashed process) lapses at locked_until and can be taken over.
-- Responses can hold what is otherwise kept only as a hash (a new API key): the key is stored as its SHA-256 and the
-- response encrypted under a key derived from the Idempotency-Key itself (sealed-response.ts).
CREATE TABLE idempotency_records (
  scope          text        NOT NULL,
  key            text        NOT NULL, -- SHA-256 (hex) of the Idempotency-Key
  -- `POST /api/v1/events/:id/registrations {"id":"…"}`: the key answers this route with these parameters only.
  request_target text        NOT NULL,
  -- SHA-256 of the canonical body; NULL while a streamed (multipart) body is still being read.
  request_hash   text,
  token          uuid        NOT NULL,
  locked_until   timestamptz NOT NULL,
  status_code    integer,
  -- The first response's body exactly as it was sent, sealed (`v1.` + base64 of AES-256-GCM iv, tag and ciphertext).
  response_body  text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key),
  CONSTRAINT idempotency_records_response_check CHECK ((status_code IS NULL) = (response_body IS NULL))
);
CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at);
