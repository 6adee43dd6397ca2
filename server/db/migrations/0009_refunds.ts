import type { Kysely, Migration } from "kysely";

// Refunds. The order keeps what has been refunded of it (`refunded`, cents) beside what was paid,
// so one conditional update can refuse a refund past the amount; each line keeps its refunded units
// the same way. A refund row is unique by its Idempotency-Key: any number of retries and concurrent
// requests with the key meet it, and there is one refund.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("orders").addColumn("refunded", "integer", (col) => col.notNull().defaultTo(0)).execute();
    await db.schema
      .createTable("order_line_refunds")
      .addColumn("order_id", "varchar(255)", (col) => col.notNull())
      .addColumn("line_id", "integer", (col) => col.notNull())
      // Units bought and units refunded so far.
      .addColumn("quantity", "integer", (col) => col.notNull())
      .addColumn("refunded", "integer", (col) => col.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("order_line_refunds_pk", ["order_id", "line_id"])
      .execute();
    await db.schema
      .createTable("refunds")
      .addColumn("id", "varchar(36)", (col) => col.primaryKey())
      .addColumn("idempotency_key", "varchar(255)", (col) => col.notNull().unique())
      // A digest of what was asked (order, lines, reason, restock): the same key with other
      // parameters is refused, as Stripe refuses it.
      .addColumn("fingerprint", "varchar(64)", (col) => col.notNull())
      .addColumn("order_id", "varchar(255)", (col) => col.notNull())
      .addColumn("amount", "integer", (col) => col.notNull())
      // JSON: [{ id, amount }] the units refunded per line.
      .addColumn("lines", "text", (col) => col.notNull())
      .addColumn("reason", "varchar(500)", (col) => col.notNull())
      .addColumn("restock", "integer", (col) => col.notNull())
      // pending (asked of the gateway), succeeded, failed (its amount given back to the order).
      .addColumn("status", "varchar(20)", (col) => col.notNull())
      // The gateway's refund id (Stripe's re_…), once it has answered.
      .addColumn("gateway_id", "varchar(255)")
      .addColumn("actor", "varchar(320)", (col) => col.notNull())
      .addColumn("created", "bigint", (col) => col.notNull())
      .addColumn("settled", "bigint")
      .execute();
    await db.schema.createIndex("refunds_order").on("refunds").columns(["order_id", "created"]).execute();
    // The back office lists every order newest first, and by status.
    await db.schema.createIndex("orders_created").on("orders").columns(["created desc", "id desc"]).execute();
    await db.schema.createIndex("orders_status_created").on("orders").columns(["status", "created desc", "id desc"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("orders_status_created").execute();
    await db.schema.dropIndex("orders_created").execute();
    await db.schema.dropTable("refunds").execute();
    await db.schema.dropTable("order_line_refunds").execute();
    await db.schema.alterTable("orders").dropColumn("refunded").execute();
  },
} satisfies Migration;
