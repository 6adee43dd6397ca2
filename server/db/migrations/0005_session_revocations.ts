import type { Kysely, Migration } from "kysely";

// Sessions signed out (or otherwise ended) whose cached cookies may still be in circulation: every
// instance refuses them at once, though better-auth's signed session cache would accept them for
// up to its lifetime. A row is kept only as long as such a cookie could live.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("session_revocations")
      .addColumn("session_id", "varchar(255)", (col) => col.primaryKey())
      .addColumn("until", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("session_revocations_until").on("session_revocations").column("until").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("session_revocations").execute();
  },
} satisfies Migration;
