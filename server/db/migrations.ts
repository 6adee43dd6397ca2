import { type Kysely, type Migration, Migrator, sql } from "kysely";
import type { AppDatabase } from "./database.ts";
import mailOutbox from "./migrations/0003_mail_outbox.ts";

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
  // Payments and orders (spec section 3: an order per user, keyed by the payment intent id).
  // Times are epoch milliseconds in bigint columns; money is integer cents.
  "0002_payments_and_orders": {
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
  },
  "0003_mail_outbox": mailOutbox,
};

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest({ db, engine }: Pick<AppDatabase, "db" | "engine">): Promise<string[]> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which one:
  // a shop in one schema would take another schema's tables for its own and fail to migrate.
  const schema = engine === "postgres" ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : null;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
