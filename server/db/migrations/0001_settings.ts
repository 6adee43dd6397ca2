import type { Kysely, Migration } from "kysely";

// Settings the shop keeps for itself (the generated auth secret), shared by every instance.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("settings")
      .addColumn("key", "varchar(100)", (col) => col.primaryKey())
      .addColumn("value", "text", (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("settings").execute();
  },
} satisfies Migration;
