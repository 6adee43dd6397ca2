import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { createPostgresSchema } from "../../test/support/database.ts";
import { postgresOrSkip } from "../../test/support/checkout.ts";
import { builtPages } from "../../test/support/pages.ts";
import { startServer } from "../../test/support/server-process.ts";
import { readSeed } from "./seed.ts";

// Two instances starting at the same time on one database seed the catalogue once.
describe("the catalogue seed, from two processes at once", () => {
  it("fills the products once; both instances serve them with their stock", async (context) => {
    const url = postgresOrSkip(context);
    await builtPages();
    const { databaseUrl, schema, drop } = await createPostgresSchema("seed");
    const database = openDatabase({ engine: "postgres", url, searchPath: schema, maxConnections: 2 });
    try {
      // Migrated first (as a deploy does); the two starts then race for the seed alone.
      await migrateToLatest(database);
      const servers = await Promise.all([1, 2].map((n) => startServer({ DATABASE_URL: databaseUrl, INSTANCE_NAME: `seed${n}` })));
      try {
        const seeded = servers.flatMap((server) => server.logs.filter((line) => line.msg === "catalogue seeded from catalogue/products.json"));
        expect(seeded).toHaveLength(1);
        const rows = await database.db.selectFrom("products").select(["id", "stock"]).orderBy("id").execute();
        expect(rows).toEqual(readSeed().map((p) => ({ id: p.id, stock: p.stock })));
        for (const server of servers) {
          const product = (await (await fetch(`${server.url}/api/catalogue/products/8`)).json()) as { stock: number };
          expect(product.stock).toBe(3);
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    } finally {
      await database.close();
      await drop();
    }
  }, 60_000);
});
