import fs from "node:fs";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, testEngines } from "../../test/support/database.ts";
import type { AppDatabase } from "./database.ts";
import { migrateToLatest, migrator } from "./migrations.ts";
import { migrations } from "./migrations/index.ts";

/** Tables, columns and indexes as the engine describes them, independent of the schema's name. */
async function describeSchema(database: AppDatabase): Promise<string[]> {
  if (database.engine === "sqlite") {
    const rows = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(database.db);
    return rows.rows.map((row) => `${row.type} ${row.name}: ${row.sql}`);
  }
  const columns = await sql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as line
    from information_schema.columns where table_schema = current_schema() order by table_name, column_name`.execute(database.db);
  const indexes = await sql<{ line: string }>`
    select tablename || ' ' || replace(indexdef, schemaname || '.', '') as line
    from pg_indexes where schemaname = current_schema() order by tablename, indexname`.execute(database.db);
  return [...columns.rows, ...indexes.rows].map((row) => row.line);
}

describe("the migration list", () => {
  it("is the folder: one file per migration, in name order", () => {
    const files = fs
      .readdirSync(new URL("./migrations/", import.meta.url))
      .filter((file) => /^\d{4}_.+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
  });
});

describe.each(testEngines())("migrations on %s", (engine) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (drops.length) await drops.pop()!();
  });

  it("give the same schema step by step as all at once", async () => {
    const atOnce = await freshDatabase(engine, { migrate: false });
    const stepwise = await freshDatabase(engine, { migrate: false });
    drops.push(atOnce.drop, stepwise.drop);
    await migrateToLatest(atOnce);
    const steps = await migrator(stepwise);
    const applied: string[] = [];
    for (;;) {
      const { error, results = [] } = await steps.migrateUp();
      expect(error).toBeUndefined();
      if (results.length === 0) break;
      expect(results).toHaveLength(1);
      applied.push(results[0]!.migrationName);
    }
    expect(applied).toEqual(Object.keys(migrations));
    const expected = await describeSchema(atOnce);
    expect(expected.length).toBeGreaterThan(5);
    expect(await describeSchema(stepwise)).toEqual(expected);
  });
});
