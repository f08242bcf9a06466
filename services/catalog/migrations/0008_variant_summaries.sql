-- What a product list needs of a product's variants, kept by the database beside them, so that a list page neither
-- builds its variants' JSON per read nor looks into every candidate's variants for `in_stock` (bench: a search among
-- 20,000 products of 3 variants each). Only what no reservation and no passing of time changes is kept: `available`
-- of a variant that something reserves (reserved > 0) is still computed at read time (db/stock-sql.ts), exactly.

-- How many of the product's variants have stock to sell when nothing reserves them: untracked, or stock > 0. A product
-- with variants is in stock when one of these is not held to its last unit (db/stock-sql.ts IN_STOCK_SQL).
ALTER TABLE products ADD COLUMN variants_stocked integer NOT NULL DEFAULT 0 CONSTRAINT products_variants_stocked_check CHECK (variants_stocked >= 0);

-- The product's variants oldest first, each as VariantView shows it (domain/variant.record.ts) less `version`, with
-- `available` as it is when nothing reserves the variant (its stock). A table of its own, not a column of products:
-- inline in the product's row it would spread a shop's rows over four times the pages, and a name search reads every
-- candidate's page.
CREATE TABLE product_variant_lists (
  product_id uuid PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
  variants   json NOT NULL
);

-- The variants something reserves (open checkouts only): the read finds the few whose `available` is not their stock
-- without looking at the others.
CREATE INDEX product_variants_reserved_idx ON product_variants (organization_id, product_id) WHERE reserved > 0;

-- The product's variants as product_variant_lists keeps them.
CREATE FUNCTION variant_list_json(product uuid) RETURNS json LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  SELECT coalesce(json_agg(json_build_object(
           'id', v.id, 'product_id', v.product_id, 'sku', v.sku, 'title', v.title, 'options', v.options,
           'price_cents', v.price_cents::float8, 'stock', v.stock, 'available', v.stock,
           'created_at', to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'updated_at', to_char(v.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY v.created_at, v.id), '[]'::json)
    FROM product_variants v WHERE v.product_id = product
$$;

-- Recomputes the product's variant_count, variants_stocked and variant list from its variants (and moves its
-- updated_at when `touch`). Its row is locked first, in a statement of its own: the statements after it then see
-- every change of the product's variants committed by a transaction that held the lock before (each PL/pgSQL
-- statement reads with a snapshot of its own), so two transactions changing variants of one product at once leave
-- the summary of both. A product being deleted (its variants go by cascade) is left alone.
CREATE FUNCTION refresh_variant_summary(product uuid, touch boolean) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM products WHERE id = product FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE products p SET (variant_count, variants_stocked) = (
           SELECT count(*), count(*) FILTER (WHERE v.stock IS NULL OR v.stock > 0) FROM product_variants v WHERE v.product_id = product),
         updated_at = CASE WHEN touch THEN now() ELSE p.updated_at END
   WHERE p.id = product;
  INSERT INTO product_variant_lists AS l (product_id, variants) VALUES (product, variant_list_json(product))
  ON CONFLICT (product_id) DO UPDATE SET variants = EXCLUDED.variants;
END $$;

-- Replaces migration 0006's: a change of a variant (not a reservation, which moves `reserved` only) is a change of its
-- product, which now also recomputes the summary above, in the same transaction.
CREATE OR REPLACE FUNCTION touch_variant_product() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM refresh_variant_summary(OLD.product_id, true);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.product_id <> OLD.product_id) THEN
    PERFORM refresh_variant_summary(NEW.product_id, true);
  END IF;
  RETURN NULL;
END $$;

-- A move of a variant to another product (no API does it) is a change of both.
DROP TRIGGER product_variants_touch_product_on_update ON product_variants;
CREATE TRIGGER product_variants_touch_product_on_update AFTER UPDATE ON product_variants
  FOR EACH ROW
  WHEN ((OLD.product_id, OLD.sku, OLD.title, OLD.options, OLD.price_cents, OLD.stock, OLD.created_at, OLD.updated_at)
        IS DISTINCT FROM (NEW.product_id, NEW.sku, NEW.title, NEW.options, NEW.price_cents, NEW.stock, NEW.created_at, NEW.updated_at))
  EXECUTE FUNCTION touch_variant_product();

-- The products that have variants already, without moving their updated_at.
SELECT refresh_variant_summary(id, false) FROM products WHERE variant_count > 0;
