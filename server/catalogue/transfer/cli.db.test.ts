import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanupAfterEach, createPostgresSchema, testEngines } from "../../../test/support/database.ts";
import { databaseTarget, openDatabase } from "../../db/database.ts";
import { readSeed } from "../seed.ts";

// `npm run catalogue -- import FILE` and `export FILE` on either engine, as an operator runs them:
// a process of their own on the database the shop is configured with.

const tsx = path.resolve("node_modules/.bin/tsx");
const SEED = readSeed();

describe.each(testEngines())("npm run catalogue on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  /** The variables that name a fresh database, and a folder for the files. */
  async function shop(): Promise<{ env: Record<string, string>; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-catalogue-cli-"));
    cleanup(async () => fs.rmSync(dir, { recursive: true, force: true }));
    if (engine === "postgres") {
      const schema = await createPostgresSchema("catalogue_cli");
      cleanup(schema.drop);
      return { env: { DATABASE_URL: schema.databaseUrl }, dir };
    }
    return { env: { DATA_DIR: path.join(dir, "data") }, dir };
  }

  const catalogue = (env: Record<string, string>, ...args: string[]) => {
    const run = spawnSync(tsx, ["server/catalogue/transfer/cli.ts", ...args], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 60_000 });
    return { code: run.status, out: run.stdout.trim(), err: run.stderr.trim() };
  };

  it("exports the catalogue and loads it back, changed rows and new ones counted, with the audit entry", async () => {
    const { env, dir } = await shop();
    const json = path.join(dir, "shop.json");
    expect(catalogue(env, "export", json)).toEqual({ code: 0, out: `exported ${SEED.length} products to ${json}`, err: "" });
    const products = JSON.parse(fs.readFileSync(json, "utf8")) as Array<{ id?: number; title: string }>;
    products[0]!.title = "Renamed";
    products.push({ ...products[1]!, id: undefined, title: "A copy" });
    fs.writeFileSync(json, JSON.stringify(products));
    expect(catalogue(env, "import", json)).toEqual({ code: 0, out: `added 1, updated 1, unchanged ${SEED.length - 1}`, err: "" });

    const csv = path.join(dir, "shop.csv");
    expect(catalogue(env, "export", csv).out).toBe(`exported ${SEED.length + 1} products to ${csv}`);
    expect(catalogue(env, "import", csv).out).toBe(`added 0, updated 0, unchanged ${SEED.length + 1}`);

    const database = openDatabase(databaseTarget({ DATABASE_URL: env.DATABASE_URL, DATA_DIR: env.DATA_DIR ?? "" }));
    try {
      const log = await database.db.selectFrom("audit_log").select(["actor", "action", "after"]).orderBy("at").execute();
      expect(log.map((entry) => ({ ...entry, after: JSON.parse(entry.after!) }))).toEqual([
        { actor: "npm run catalogue", action: "products.import", after: { added: 1, updated: 1, unchanged: SEED.length - 1 } },
        { actor: "npm run catalogue", action: "products.import", after: { added: 0, updated: 0, unchanged: SEED.length + 1 } },
      ]);
      expect((await database.db.selectFrom("products").select("title").where("id", "=", 1).executeTakeFirstOrThrow()).title).toBe("Renamed");
    } finally {
      await database.close();
    }
  });

  it("lists a bad file's rows and fields, writes nothing, and refuses what it cannot read", async () => {
    const { env, dir } = await shop();
    const csv = path.join(dir, "bad.csv");
    fs.writeFileSync(csv, "id,title,price,description,category,stock\n1,Tee,-3,,men,1\n2,,4,,men,1\n");
    expect(catalogue(env, "import", csv)).toEqual({
      code: 1,
      out: "",
      err: [`Nothing was written: ${csv} has problems.`, "row 1: price: The price cannot be negative.", "row 2: title: Enter a title."].join("\n"),
    });
    expect(catalogue(env, "import", path.join(dir, "shop.xlsx"))).toEqual({ code: 2, out: "", err: `${path.join(dir, "shop.xlsx")}: the format goes by the file's extension, .json or .csv.` });
    expect(catalogue(env, "import", path.join(dir, "none.json"))).toMatchObject({ code: 1, err: `${path.join(dir, "none.json")}: there is no such file.` });
    expect(catalogue({ ...env, CATALOGUE_URL: "https://fakestore.example" }, "import", csv)).toMatchObject({ code: 1, err: expect.stringContaining("CATALOGUE_URL") });
    expect(catalogue(env, "load", csv)).toMatchObject({ code: 2, err: "Usage: npm run catalogue -- import <file.json|file.csv> | export <file.json|file.csv>" });
  });
});
