import { Migrator, sql } from "kysely";
import type { AppDatabase } from "./database.ts";
import { migrations } from "./migrations/index.ts";

/** The newest migration this code knows: a database without it is not ready for this code. */
export const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;

/** Kysely's migrator over the shop's migrations (server/db/migrations/). */
export async function migrator({ db, engine }: Pick<AppDatabase, "db" | "engine">): Promise<Migrator> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which one:
  // a shop in one schema would take another schema's tables for its own and fail to migrate.
  const schema = engine === "postgres" ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : null;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(database: Pick<AppDatabase, "db" | "engine">): Promise<string[]> {
  const { error, results = [] } = await (await migrator(database)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
