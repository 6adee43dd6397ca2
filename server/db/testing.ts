import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { type AppDatabase, type Engine, openDatabase } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

/** The engines this test run covers: SQLite always, PostgreSQL where the global setup found one. */
export function testEngines(): Engine[] {
  return inject("postgresUrl") ? ["sqlite", "postgres"] : ["sqlite"];
}

/**
 * A fresh, empty database on `engine`: an in-memory SQLite database, or a schema of its own on
 * the test PostgreSQL server, dropped again by the returned `drop`.
 */
export async function freshDatabase(
  engine: Engine,
  options: { migrate?: boolean } = {},
): Promise<AppDatabase & { drop(): Promise<void> }> {
  let database: AppDatabase;
  let cleanup = async () => {};
  if (engine === "sqlite") {
    database = openDatabase({ engine: "sqlite", file: ":memory:" });
  } else {
    const url = inject("postgresUrl");
    if (!url) throw new Error("freshDatabase('postgres') called but no PostgreSQL server answered");
    const schema = `test_${randomBytes(6).toString("hex")}`;
    await admin(url, `create schema ${schema}`);
    database = openDatabase({ engine: "postgres", url, searchPath: schema, maxConnections: 4 });
    cleanup = () => admin(url, `drop schema ${schema} cascade`);
  }
  if (options.migrate !== false) await migrateToLatest(database.db);
  return {
    ...database,
    async drop() {
      await database.close();
      await cleanup();
    },
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
