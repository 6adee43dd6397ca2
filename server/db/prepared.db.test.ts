import { CamelCasePlugin, type Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, testEngines } from "../../test/support/database.ts";
import { prepared } from "./prepared.ts";
import type { Schema } from "./schema.ts";

type Db = Kysely<Schema>;

const SETTINGS = [
  { key: "a", value: "1" },
  { key: "b", value: "2" },
  { key: "c", value: "3" },
  { key: "d", value: "4" },
];

describe.each(testEngines())("prepared statements on %s", (engine) => {
  let drop: () => Promise<void> = async () => {};
  afterEach(() => drop());

  async function database() {
    const database = await freshDatabase(engine);
    drop = database.drop;
    await database.db.insertInto("settings").values(SETTINGS).execute();
    return database.db;
  }

  it("runs a statement withNext or withNextAnswered in a transaction as it runs it at once: the same rows, the same answer", async () => {
    const db = await database();
    const insert = prepared((db: Db, p: { key: string; value: string }) => db.insertInto("settings").values({ key: p.key, value: p.value }));
    const rename = prepared((db: Db, p: { from: string; to: string }) => db.updateTable("settings").set({ key: p.to }).where("key", "=", p.from));
    const changed = await db.transaction().execute(async (trx) => {
      await insert.withNext(trx, { key: "e", value: "5" });
      const renamed = await rename.withNextAnswered(trx, { from: "a", to: "z" });
      await insert(trx, { key: "f", value: "6" });
      return (await renamed()).numAffectedRows;
    });
    expect(changed).toBe(1n);
    const keys = (await db.selectFrom("settings").select("key").orderBy("key").execute()).map((row) => row.key);
    expect(keys).toEqual(["b", "c", "d", "e", "f", "z"]);
    expect(Number((await (await rename.withNextAnswered(db, { from: "b", to: "y" }))()).numAffectedRows)).toBe(1);
  });

  it("binds each call's values where the builder's query has them, and answers the same rows", async () => {
    const db = await database();
    let builds = 0;
    const between = prepared((db: Db, p: { from: string; to: string; limit: number }) => {
      builds++;
      return db.selectFrom("settings").selectAll().where("key", ">=", p.from).where("key", "<=", p.to).orderBy("key", "desc").limit(p.limit);
    });
    for (const [from, to, limit] of [["a", "c", 2], ["b", "d", 10], ["c", "c", 1], ["x", "z", 5]] as const) {
      const builder = await db.selectFrom("settings").selectAll().where("key", ">=", from).where("key", "<=", to).orderBy("key", "desc").limit(limit).execute();
      expect((await between(db, { from, to, limit })).rows).toEqual(builder);
    }
    expect(builds).toBe(1);
  });

  it("takes a value used twice, constants kept, in raw sql`` too", async () => {
    const db = await database();
    const twice = prepared((db: Db, p: { key: string }) => sql<{ key: string; same: number }>`select key, case when key = ${p.key} then 1 else 0 end as same from settings where key <= ${p.key} and value <> ${"9"} order by key`);
    expect((await twice(db, { key: "b" })).rows.map((row) => [row.key, Number(row.same)])).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
    expect((await twice(db, { key: "a" })).rows.map((row) => [row.key, Number(row.same)])).toEqual([["a", 1]]);
  });

  it("builds a list parameter once per length", async () => {
    const db = await database();
    const lengths: number[] = [];
    const some = prepared((db: Db, p: { keys: string[] }) => {
      lengths.push(p.keys.length);
      return db.selectFrom("settings").select("value").where("key", "in", p.keys).orderBy("key");
    });
    const values = async (keys: string[]) => (await some(db, { keys })).rows.map((row) => row.value);
    expect(await values(["a"])).toEqual(["1"]);
    expect(await values(["d", "b"])).toEqual(["2", "4"]);
    expect(await values(["c"])).toEqual(["3"]);
    expect(await values(["a", "c"])).toEqual(["1", "3"]);
    expect(await values(["a", "b", "x"])).toEqual(["1", "2"]);
    expect(lengths).toEqual([1, 2, 3]);
  });

  it("writes inside a transaction, kept on commit and gone on rollback, and counts the rows changed", async () => {
    const db = await database();
    const insert = prepared((db: Db, p: { key: string; value: string }) => db.insertInto("settings").values({ key: p.key, value: p.value }).onConflict((oc) => oc.column("key").doNothing()));
    await db.transaction().execute(async (trx) => {
      expect(Number((await insert(trx, { key: "e", value: "5" })).numAffectedRows)).toBe(1);
      expect(Number((await insert(trx, { key: "a", value: "x" })).numAffectedRows)).toBe(0);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, { key: "f", value: "6" });
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    const rows = await db.selectFrom("settings").selectAll().orderBy("key").execute();
    expect(rows).toEqual([...SETTINGS, { key: "e", value: "5" }]);
  });

  it("refuses a parameter used as anything but a value of the query", async () => {
    const db = await database();
    const next = prepared((db: Db, p: { n: number }) => db.selectFrom("settings").selectAll().limit(p.n + 1));
    expect(() => next(db, { n: 1 })).toThrow(/n not used as a value/);
  });

  it("refuses a Kysely with plugins", async () => {
    const db = await database();
    const all = prepared((db: Db, p: { key: string }) => db.selectFrom("settings").selectAll().where("key", "=", p.key));
    expect(() => all(db.withPlugin(new CamelCasePlugin()), { key: "a" })).toThrow(/without plugins/);
  });
});
