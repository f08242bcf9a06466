-- Uses btree_gin (in public), created once per database by the migration step (the kit's DATABASE_EXTENSIONS).
-- A shop's name search must not cost more because other shops share the table. The trigram index alone yields the
-- matching names of every organization, and each is then thrown away by the organization filter: with nine other
-- shops of 20k products, a search read 2-8x the buffers and took 4-8x as long as the same search in a shop alone.
-- With the organization as the first column of the same GIN index (uuid equality through btree_gin), the index
-- intersects the shop's entries with the trigrams', and the search costs the same alone or among ten shops
-- (EXPLAIN ANALYZE on 10 x 20k products: 0.54 / 1.34 / 0.77 ms among ten against 0.52 / 1.30 / 0.65-0.75 ms alone).
CREATE INDEX products_org_name_trgm_idx ON products USING gin (organization_id, name_folded public.gin_trgm_ops) WITH (fastupdate = off);
DROP INDEX products_name_folded_trgm_idx;
