-- Check-in at the door and questions to attendees (API.md, "Ticket types, waitlists, check-in and questions").

-- A ticket code: 10 characters of A–Z and 2–9, drawn from Postgres' CSPRNG (gen_random_uuid() uses
-- pg_strong_random()): each character from 32 random bits of a fresh v4 uuid (its first 8 hex digits are random),
-- reduced mod 34, a bias below 1e-8. The service draws its codes with node:crypto (domain/ticket-code.ts); this one
-- fills the registrations made before this migration and is the column's default for rows written by plain SQL
-- (bench and test seeds), so every row has one. SET search_path FROM CURRENT pins this schema, as count_places() does.
CREATE FUNCTION random_ticket_code() RETURNS text LANGUAGE sql VOLATILE SET search_path FROM CURRENT AS $$
  SELECT string_agg(
           substr('ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789',
                  1 + (('x' || lpad(substr(gen_random_uuid()::text, 1, 8), 16, '0'))::bit(64)::bigint % 34)::int, 1),
           '' ORDER BY n)
    FROM generate_series(1, 10) AS n
$$;

ALTER TABLE registrations ADD COLUMN ticket_code text;
UPDATE registrations SET ticket_code = random_ticket_code();

-- Two equal codes in one organization are about one chance in 10^9 per pair of registrations; draw again until none.
DO $$
BEGIN
  LOOP
    UPDATE registrations AS r SET ticket_code = random_ticket_code()
      FROM (SELECT id, row_number() OVER (PARTITION BY organization_id, ticket_code ORDER BY id) AS nth FROM registrations) AS d
     WHERE d.id = r.id AND d.nth > 1;
    EXIT WHEN NOT FOUND;
  END LOOP;
END
$$;

ALTER TABLE registrations
  ALTER COLUMN ticket_code SET DEFAULT random_ticket_code(),
  ALTER COLUMN ticket_code SET NOT NULL,
  ADD CONSTRAINT registrations_ticket_code_format CHECK (ticket_code ~ '^[A-Z2-9]{10}$');
-- Unique per organization by constraint; also the index a scan finds its registration by (organization, code).
ALTER TABLE registrations ADD CONSTRAINT registrations_organization_ticket_code_key UNIQUE (organization_id, ticket_code);

-- When the ticket was first scanned; null until then and again after an undo. A scan writes only the registration's
-- row: no trigger touches the event's row, so scanners at one event never queue on its lock.
ALTER TABLE registrations ADD COLUMN checked_in_at timestamptz(3);

-- `counts.checked_in` (the places of checked-in, non-cancelled registrations) is summed from this index where it is
-- read, in the list's one statement, instead of being kept on the event's row by a trigger (see above).
CREATE INDEX registrations_checked_in_idx ON registrations (event_id) INCLUDE (quantity)
  WHERE checked_in_at IS NOT NULL AND status <> 'cancelled';

-- The event's questions (validated by packages/contracts event-questions.ts) and each registration's answers, stored
-- as given: answers stay readable, unchanged, when the questions change later.
ALTER TABLE events ADD COLUMN questions jsonb NOT NULL DEFAULT '[]';
ALTER TABLE registrations ADD COLUMN answers jsonb NOT NULL DEFAULT '{}';
