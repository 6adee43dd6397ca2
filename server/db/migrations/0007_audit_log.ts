import type { Kysely, Migration } from "kysely";

// The back office's audit log. Append-only: the shop never updates or deletes a row.
// (The staff role is a column of better-auth's user table, declared in server/auth/better-auth.ts.)
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "varchar(36)", (col) => col.primaryKey())
      .addColumn("at", "bigint", (col) => col.notNull())
      .addColumn("actor_id", "varchar(255)")
      .addColumn("actor", "varchar(320)", (col) => col.notNull())
      .addColumn("action", "varchar(64)", (col) => col.notNull())
      .addColumn("target", "varchar(400)", (col) => col.notNull())
      .addColumn("before", "text")
      .addColumn("after", "text")
      .execute();
    // Newest first, a page at a time.
    await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at desc", "id desc"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("audit_log").execute();
  },
} satisfies Migration;
