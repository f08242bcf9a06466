-- Options, variants and inventory reservations (API.md, "Variants, inventory and categories").

-- A product's options: [{name, values: [...]}] (0..3), checked by the API; every variant lists one value of each.
ALTER TABLE products ADD COLUMN options jsonb NOT NULL DEFAULT '[]';
-- What active reservations of the product itself (one without variants) hold; see inventory_reservations below.
ALTER TABLE products ADD COLUMN reserved integer NOT NULL DEFAULT 0 CONSTRAINT products_reserved_check CHECK (reserved >= 0);
-- How many variants the product has, kept by the trigger below: the product list and `in_stock` read a product without
-- variants (most of them) as before, without looking for variants it does not have.
ALTER TABLE products ADD COLUMN variant_count integer NOT NULL DEFAULT 0 CONSTRAINT products_variant_count_check CHECK (variant_count >= 0);

CREATE TABLE product_variants (
  id              uuid        PRIMARY KEY,
  organization_id uuid        NOT NULL,
  product_id      uuid        NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  sku             text        NOT NULL,
  title           text,
  -- {<option name>: <value>}. jsonb equality is canonical (key order and spacing do not count), so the unique index
  -- below refuses two variants of one product with the same values, whatever order a client wrote them in.
  options         jsonb       NOT NULL DEFAULT '{}',
  -- NULL: the variant shows its product's current price.
  price_cents     bigint      CHECK (price_cents >= 0),
  -- NULL: stock not tracked (always reservable).
  stock           integer     CHECK (stock >= 0),
  -- The quantities of the variant's active reservations (expired ones included until they are released, which reads
  -- and reservations subtract again: see inventory_reservation_items).
  reserved        integer     NOT NULL DEFAULT 0 CONSTRAINT product_variants_reserved_check CHECK (reserved >= 0),
  version         integer     NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT product_variants_org_sku_key UNIQUE (organization_id, sku),
  CONSTRAINT product_variants_options_key UNIQUE (product_id, options)
);
-- A product's variants in their order (records embed them, the list pages them; a product has few, so its
-- `updated_since` is served by the same index).
CREATE INDEX product_variants_product_idx ON product_variants (product_id, created_at, id);

CREATE TRIGGER product_variants_version BEFORE UPDATE ON product_variants
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
-- A reservation, its release or its expiry moves `reserved` only: not a change of the variant (its ETag still
-- covers `available`, domain/variant.record.ts), so updated_at stays.
CREATE TRIGGER product_variants_touch_updated_at BEFORE UPDATE ON product_variants
  FOR EACH ROW
  WHEN ((OLD.sku, OLD.title, OLD.options, OLD.price_cents, OLD.stock) IS DISTINCT FROM (NEW.sku, NEW.title, NEW.options, NEW.price_cents, NEW.stock))
  EXECUTE FUNCTION touch_updated_at();

-- A product's record shows its variants, so a change of one is a change of the product: its version (the kit's
-- trigger on products raises it) and updated_at move, which its ETag and `updated_since` see. A reservation only
-- moves `reserved`, which is no change of what the variant is (the product's ETag still covers `available`,
-- domain/product.record.ts); a commit moves `stock` and counts.
-- SET search_path FROM CURRENT: the migration's (the catalog's schema first), so that the trigger finds `products`
-- whoever's statement fires it (a session on another search_path, such as a bench's or an operator's).
CREATE FUNCTION touch_variant_product() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE products SET updated_at = now(), variant_count = variant_count + 1 WHERE id = NEW.product_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE products SET updated_at = now(), variant_count = variant_count - 1 WHERE id = OLD.product_id;
  ELSE
    UPDATE products SET updated_at = now() WHERE id = NEW.product_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER product_variants_touch_product AFTER INSERT OR DELETE ON product_variants
  FOR EACH ROW EXECUTE FUNCTION touch_variant_product();
CREATE TRIGGER product_variants_touch_product_on_update AFTER UPDATE ON product_variants
  FOR EACH ROW
  WHEN ((OLD.sku, OLD.title, OLD.options, OLD.price_cents, OLD.stock) IS DISTINCT FROM (NEW.sku, NEW.title, NEW.options, NEW.price_cents, NEW.stock))
  EXECUTE FUNCTION touch_variant_product();

-- A checkout's hold on stock. `status` is as last written: an active one whose expires_at has passed is shown (and
-- treated) as expired at once, and written so later by the next reservation of its organization.
CREATE TABLE inventory_reservations (
  id              uuid        PRIMARY KEY,
  organization_id uuid        NOT NULL,
  status          text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'committed', 'released', 'expired')),
  expires_at      timestamptz NOT NULL,
  version         integer     NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
-- The active reservations past their expiry, oldest first, for the release that writes them as expired.
CREATE INDEX inventory_reservations_active_expiry_idx ON inventory_reservations (organization_id, expires_at) WHERE status = 'active';
CREATE TRIGGER inventory_reservations_version BEFORE UPDATE ON inventory_reservations
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER inventory_reservations_touch_updated_at BEFORE UPDATE ON inventory_reservations
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- One item of a reservation: a variant or a product (exactly one), as the client sent it (`index` is its place in
-- the request). No foreign keys: a variant or product deleted meanwhile leaves the reservation as it was.
-- `active` and `expires_at` repeat the reservation's state, so that what expired reservations still count in
-- `reserved` is found per variant or product through the small partial indexes below, without a join.
CREATE TABLE inventory_reservation_items (
  reservation_id uuid        NOT NULL REFERENCES inventory_reservations (id) ON DELETE CASCADE,
  index          integer     NOT NULL CHECK (index >= 0),
  variant_id     uuid,
  product_id     uuid,
  quantity       integer     NOT NULL CHECK (quantity >= 1),
  active         boolean     NOT NULL DEFAULT true,
  expires_at     timestamptz NOT NULL,
  PRIMARY KEY (reservation_id, index),
  CONSTRAINT inventory_reservation_items_target_check CHECK ((variant_id IS NULL) <> (product_id IS NULL))
);
CREATE INDEX inventory_reservation_items_variant_idx ON inventory_reservation_items (variant_id, expires_at)
  WHERE active AND variant_id IS NOT NULL;
CREATE INDEX inventory_reservation_items_product_idx ON inventory_reservation_items (product_id, expires_at)
  WHERE active AND product_id IS NOT NULL;
