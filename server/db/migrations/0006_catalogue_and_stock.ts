import type { Kysely, Migration } from "kysely";

// The catalogue in the shop's database (seeded once from catalogue/products.json) and stock that
// never oversells. `reserved` is the sum of the live reservations' units, kept beside `stock` so
// that a single conditional update can reserve (no read-then-write race).
export default {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable("categories").addColumn("name", "varchar(100)", (col) => col.primaryKey()).execute();
    await db.schema
      .createTable("products")
      .addColumn("id", "integer", (col) => col.primaryKey())
      .addColumn("title", "varchar(500)", (col) => col.notNull())
      .addColumn("price_cents", "integer", (col) => col.notNull())
      .addColumn("description", "text", (col) => col.notNull())
      .addColumn("category", "varchar(100)", (col) => col.notNull().references("categories.name"))
      // An embedded drawing's file name, or an absolute URL.
      .addColumn("image", "varchar(2000)", (col) => col.notNull())
      .addColumn("rating_rate", "double precision", (col) => col.notNull().defaultTo(0))
      .addColumn("rating_count", "integer", (col) => col.notNull().defaultTo(0))
      // May go below zero only when a payment the gateway had already taken arrives after its
      // reservation expired: that order is written anyway and marked oversold.
      .addColumn("stock", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("reserved", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("updated", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("products_category").on("products").columns(["category", "id"]).execute();
    await db.schema
      .createTable("reservations")
      .addColumn("payment_id", "varchar(255)", (col) => col.notNull())
      .addColumn("product_id", "integer", (col) => col.notNull())
      .addColumn("user_id", "varchar(255)", (col) => col.notNull())
      .addColumn("amount", "integer", (col) => col.notNull())
      // held (counts in products.reserved), sold, released (a newer checkout), expired.
      .addColumn("state", "varchar(20)", (col) => col.notNull())
      .addColumn("expires_at", "bigint", (col) => col.notNull())
      .addColumn("created", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("reservations_pk", ["payment_id", "product_id"])
      .execute();
    await db.schema.createIndex("reservations_state_expires").on("reservations").columns(["state", "expires_at"]).execute();
    await db.schema.createIndex("reservations_user_state").on("reservations").columns(["user_id", "state"]).execute();
    // paid, or oversold: paid after its reservation expired, when the units had gone to others.
    await db.schema.alterTable("orders").addColumn("status", "varchar(20)", (col) => col.notNull().defaultTo("paid")).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("orders").dropColumn("status").execute();
    await db.schema.dropTable("reservations").execute();
    await db.schema.dropTable("products").execute();
    await db.schema.dropTable("categories").execute();
  },
} satisfies Migration;
