import type { Kysely, Migration } from "kysely";

// /admin/products: every product carries the version an edit must start from (an edit of an older
// one is refused), and may be archived (gone from the shop, kept on its orders). Uploaded pictures
// live in the database, so every instance on one PostgreSQL serves them: each rendition (width and
// format) once, base64 text so that one column type fits both engines.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("products").addColumn("version", "integer", (col) => col.notNull().defaultTo(1)).execute();
    // When it was archived (epoch ms); null while it is on sale.
    await db.schema.alterTable("products").addColumn("archived_at", "bigint").execute();
    // The back office sorts by stock, a page at a time.
    await db.schema.createIndex("products_stock").on("products").columns(["stock", "id"]).execute();
    await db.schema
      .createTable("product_images")
      // sha256 of the upload as re-encoded: a new picture is a new address, cached for good.
      .addColumn("image_id", "varchar(64)", (col) => col.notNull())
      .addColumn("width", "integer", (col) => col.notNull())
      .addColumn("format", "varchar(8)", (col) => col.notNull())
      .addColumn("body", "text", (col) => col.notNull())
      .addColumn("created", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("product_images_pk", ["image_id", "width", "format"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("product_images").execute();
    await db.schema.dropIndex("products_stock").execute();
    await db.schema.alterTable("products").dropColumn("archived_at").execute();
    await db.schema.alterTable("products").dropColumn("version").execute();
  },
} satisfies Migration;
