-- Categories: a navigation tree per organization, at most 5 levels deep, without cycles. The tree's shape is kept in
-- a closure table (every ancestor-descendant pair with its distance, each category its own ancestor at depth 0), so
-- "this category and everything below it" is one indexed lookup whatever the depth or size of the tree. The depth
-- and cycle rules are checked by the service under one transaction-scoped lock per organization that every create,
-- move and delete of its categories takes (src/db/category-tree.repository.ts): two racing moves run one after the
-- other, and the second sees the paths the first left.
CREATE TABLE categories (
  id              uuid        PRIMARY KEY,
  organization_id uuid        NOT NULL,
  name            text        NOT NULL,
  slug            text        NOT NULL,
  parent_id       uuid,
  description     text,
  version         integer     NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT categories_not_own_parent CHECK (parent_id IS DISTINCT FROM id),
  -- Target of the composite foreign keys: a parent, and a product's category, are of the same organization.
  CONSTRAINT categories_org_id_key UNIQUE (organization_id, id),
  -- A category with children is never deleted (the API answers 409 CATEGORY_NOT_EMPTY first).
  CONSTRAINT categories_parent_fkey FOREIGN KEY (organization_id, parent_id) REFERENCES categories (organization_id, id)
);
CREATE UNIQUE INDEX categories_org_slug_key ON categories (organization_id, slug);
-- The list (oldest first), its cursors and updated_since.
CREATE INDEX categories_org_created_idx ON categories (organization_id, created_at, id);
CREATE INDEX categories_org_updated_idx ON categories (organization_id, updated_at);
CREATE INDEX categories_parent_idx ON categories (parent_id) WHERE parent_id IS NOT NULL;

CREATE TRIGGER categories_version BEFORE UPDATE ON categories
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER categories_touch_updated_at BEFORE UPDATE ON categories
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The closure table: (ancestor, descendant, distance). The primary key serves "below this one" (ancestor first);
-- the second index "above this one" (a move's and a depth check's ancestors).
CREATE TABLE category_paths (
  ancestor_id   uuid     NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  descendant_id uuid     NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  depth         smallint NOT NULL CHECK (depth >= 0 AND depth < 5),
  PRIMARY KEY (ancestor_id, descendant_id)
);
CREATE INDEX category_paths_descendant_idx ON category_paths (descendant_id, ancestor_id);

-- A product's categories, in the order the client gave them (`position`). The composite foreign key keeps them of the
-- product's organization; deleting a category (or the product) removes its rows.
CREATE TABLE product_categories (
  product_id      uuid     NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  organization_id uuid     NOT NULL,
  category_id     uuid     NOT NULL,
  position        smallint NOT NULL,
  PRIMARY KEY (product_id, category_id),
  CONSTRAINT product_categories_category_fkey FOREIGN KEY (organization_id, category_id)
    REFERENCES categories (organization_id, id) ON DELETE CASCADE
);
-- The `category_id` filter: the products of a set of categories.
CREATE INDEX product_categories_category_idx ON product_categories (category_id, product_id);
