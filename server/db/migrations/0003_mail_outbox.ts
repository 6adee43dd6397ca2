import type { Kysely, Migration } from "kysely";

// The mail outbox (server/mail): a message is written here in the transaction of what causes it
// and sent afterwards by the worker. Times are epoch milliseconds.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("mail_outbox")
      // The Message-ID's local part too, so a resend after a crash is the same message.
      .addColumn("id", "varchar(36)", (col) => col.primaryKey())
      .addColumn("kind", "varchar(40)", (col) => col.notNull())
      // What the message is about (an order id, a reset request): one message per kind and key.
      .addColumn("dedupe_key", "varchar(255)", (col) => col.notNull())
      .addColumn("recipient", "varchar(320)", (col) => col.notNull())
      .addColumn("payload", "text", (col) => col.notNull())
      .addColumn("status", "varchar(20)", (col) => col.notNull())
      .addColumn("attempts", "integer", (col) => col.notNull())
      .addColumn("next_attempt_at", "bigint", (col) => col.notNull())
      .addColumn("last_error", "text")
      .addColumn("created", "bigint", (col) => col.notNull())
      .addColumn("sent_at", "bigint")
      .execute();
    await db.schema.createIndex("mail_outbox_kind_key").unique().on("mail_outbox").columns(["kind", "dedupe_key"]).execute();
    // The worker's question: which pending messages are due, oldest first.
    await db.schema.createIndex("mail_outbox_due").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
    // The per-address limit on reset mails counts one recipient's recent messages.
    await db.schema.createIndex("mail_outbox_recipient").on("mail_outbox").columns(["recipient", "kind", "created"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("mail_outbox").execute();
  },
} satisfies Migration;
