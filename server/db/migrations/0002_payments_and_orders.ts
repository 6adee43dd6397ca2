import type { Kysely, Migration } from "kysely";

// Payments and orders (spec section 3: an order per user, keyed by the payment intent id).
// Times are epoch milliseconds in bigint columns; money is integer cents.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("payments")
      .addColumn("id", "varchar(255)", (col) => col.primaryKey())
      .addColumn("user_id", "varchar(255)", (col) => col.notNull())
      .addColumn("gateway", "varchar(20)", (col) => col.notNull())
      .addColumn("amount", "integer", (col) => col.notNull())
      .addColumn("currency", "varchar(3)", (col) => col.notNull())
      .addColumn("basket", "text", (col) => col.notNull())
      .addColumn("status", "varchar(40)", (col) => col.notNull())
      .addColumn("client_secret_hash", "varchar(64)")
      .addColumn("card_brand", "varchar(20)")
      .addColumn("card_last4", "varchar(4)")
      .addColumn("created", "bigint", (col) => col.notNull())
      .addColumn("updated", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("payments_status_created").on("payments").columns(["status", "created"]).execute();
    await db.schema
      .createTable("orders")
      .addColumn("id", "varchar(255)", (col) => col.primaryKey())
      .addColumn("user_id", "varchar(255)", (col) => col.notNull())
      .addColumn("amount", "integer", (col) => col.notNull())
      .addColumn("basket", "text", (col) => col.notNull())
      // created: the payment intent's time (spec section 3); placed: when the server wrote the
      // order, which is what the live feed catches up from after a dropped connection.
      .addColumn("created", "bigint", (col) => col.notNull())
      .addColumn("placed", "bigint", (col) => col.notNull())
      .execute();
    // The orders page reads one user's orders newest first, a page at a time.
    await db.schema.createIndex("orders_user_created").on("orders").columns(["user_id", "created desc", "id desc"]).execute();
    await db.schema.createIndex("orders_user_placed").on("orders").columns(["user_id", "placed"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("orders").execute();
    await db.schema.dropTable("payments").execute();
  },
} satisfies Migration;
