import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "./migrations.ts";
import { generatedSetting } from "./settings.ts";
import { freshDatabase, testEngines } from "../../test/support/database.ts";

describe.each(testEngines())("database on %s", (engine) => {
  let drop: () => Promise<void> = async () => {};
  afterEach(() => drop());

  it("runs the migrations once; a second run is a no-op", async () => {
    const database = await freshDatabase(engine, { migrate: false });
    drop = database.drop;
    const first = await migrateToLatest(database);
    expect(first).toContain("0001_settings");
    const second = await migrateToLatest(database);
    expect(second).toEqual([]);
    if (engine === "postgres") {
      // A second shop in another schema of the same server migrates its own schema, undisturbed by this one's tables.
      const neighbour = await freshDatabase(engine, { migrate: false });
      try {
        expect(await migrateToLatest(neighbour)).toContain("0001_settings");
      } finally {
        await neighbour.drop();
      }
    }
    await database.db.insertInto("settings").values({ key: "k", value: "v" }).execute();
    const rows = await database.db.selectFrom("settings").selectAll().execute();
    expect(rows).toEqual([{ key: "k", value: "v" }]);
  });

  it("answers ping while open and not after closing", async () => {
    const database = await freshDatabase(engine);
    drop = async () => {};
    expect(await database.ping()).toBe(true);
    await database.drop();
    expect(await database.ping()).toBe(false);
  });

  it("generates a setting once and returns the same value to concurrent callers", async () => {
    const database = await freshDatabase(engine);
    drop = database.drop;
    const values = await Promise.all(Array.from({ length: 5 }, () => generatedSetting(database.db, "auth_secret")));
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^[\w-]{43}$/);
    expect(await generatedSetting(database.db, "auth_secret")).toBe(values[0]);
    const count = await sql<{ n: number }>`select count(*) as n from settings`.execute(database.db);
    expect(Number(count.rows[0]!.n)).toBe(1);
  });
});
