-- Catalog: uploaded media files, products and the images attached to them.
-- Uses pg_trgm (in public), created once per database by the migration step (the kit's DATABASE_EXTENSIONS).

-- An uploaded image. The bytes live in storage under storage_key; `token` is the unguessable segment of its
-- public URL (/media/<token>/<public_name>), so serving needs no API key.
CREATE TABLE media_files (
  id              uuid        PRIMARY KEY,
  organization_id uuid        NOT NULL,
  token           text        NOT NULL,
  storage_key     text        NOT NULL,
  filename        text        NOT NULL,
  public_name     text        NOT NULL,
  mime_type       text        NOT NULL,
  size            integer     NOT NULL CHECK (size >= 0),
  width           integer     NOT NULL CHECK (width >= 0),
  height          integer     NOT NULL CHECK (height >= 0),
  alt_text        text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT media_files_token_key UNIQUE (token),
  -- Target of the composite foreign keys below: a product can only point at its own organization's media.
  CONSTRAINT media_files_org_id_key UNIQUE (organization_id, id)
);
CREATE INDEX media_files_org_created_idx ON media_files (organization_id, created_at DESC, id DESC);

CREATE TABLE products (
  id                uuid        PRIMARY KEY,
  organization_id   uuid        NOT NULL,
  name              text        NOT NULL,
  slug              text        NOT NULL,
  description       text,
  -- Integer cents; bigint because the API accepts prices up to 1e9 dollars.
  price_cents       bigint      NOT NULL CHECK (price_cents >= 0),
  status            text        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
  -- NULL = stock not tracked.
  stock             integer     CHECK (stock >= 0),
  featured_image_id uuid,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  -- A media file in use as a featured image cannot be deleted (the API answers 409).
  CONSTRAINT products_featured_image_fkey FOREIGN KEY (organization_id, featured_image_id)
    REFERENCES media_files (organization_id, id)
);
CREATE UNIQUE INDEX products_org_slug_key ON products (organization_id, slug);
CREATE INDEX products_org_created_idx ON products (organization_id, created_at DESC, id DESC);
CREATE INDEX products_org_price_idx ON products (organization_id, price_cents);
-- Case-insensitive name search (ILIKE '%…%'). fastupdate off: a catalog is read far more than written, and
-- a GIN pending list would otherwise be scanned by every search until the next vacuum.
CREATE INDEX products_name_trgm_idx ON products USING gin (name public.gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX products_featured_image_idx ON products (featured_image_id) WHERE featured_image_id IS NOT NULL;

-- A media file attached to a product. Positions are dense (0..n-1) and unique per product; the unique
-- constraint is checked at commit so that re-numbering several rows in one transaction is possible.
-- "Featured" is not stored here: an image is featured when its media file is the product's featured_image_id,
-- so there is never more than one and featuring is a single update of the product.
CREATE TABLE product_images (
  id              uuid        PRIMARY KEY,
  organization_id uuid        NOT NULL,
  product_id      uuid        NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  media_file_id   uuid        NOT NULL,
  order_index     integer     NOT NULL CHECK (order_index >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT product_images_media_fkey FOREIGN KEY (organization_id, media_file_id)
    REFERENCES media_files (organization_id, id),
  CONSTRAINT product_images_position_key UNIQUE (product_id, order_index) DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT product_images_media_key UNIQUE (product_id, media_file_id)
);
CREATE INDEX product_images_media_idx ON product_images (media_file_id);
