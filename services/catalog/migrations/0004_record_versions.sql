-- The versions that the catalog's ETags are made from (src/domain/*.record.ts), each raised by every update of its
-- row (the kit's bump_record_version(), kit migration 0007), whichever statement makes it: a media file's (its alt
-- text changes), a product's, and a product image's (its place in the gallery moves when another image moves). A
-- product's record shows its featured media file and an image's record its media file, so their ETags are made of
-- their own version and that media file's: a change of the alt text changes them without writing their rows (a media
-- file may be the featured image of many products). Existing rows start at 1.
ALTER TABLE media_files ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE products ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE product_images ADD COLUMN version integer NOT NULL DEFAULT 1;

CREATE TRIGGER media_files_version BEFORE UPDATE ON media_files
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER products_version BEFORE UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER product_images_version BEFORE UPDATE ON product_images
  FOR EACH ROW EXECUTE FUNCTION bump_record_version();
