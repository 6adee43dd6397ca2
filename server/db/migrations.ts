import { type Kysely, type Migration, Migrator } from "kysely";
import type { Schema } from "./schema.ts";

// One list of migrations for both engines: only portable column types, no engine-specific SQL.
// Names sort in the order they run; never edit one that has shipped, add a new one.
const migrations: Record<string, Migration> = {
  "0001_settings": {
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
  },
};

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(db: Kysely<Schema>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
