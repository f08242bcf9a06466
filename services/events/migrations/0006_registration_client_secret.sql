-- A registration's `client_secret` (API.md "Keys"): shown once in its 201 and kept only as its SHA-256, which is what a
-- publishable key's cancel (`?client_secret=`) is checked against. Registrations made before it have none (NULL): they
-- can be cancelled with a secret or restricted key only, never by a guess.
ALTER TABLE registrations ADD COLUMN client_secret_hash bytea;
