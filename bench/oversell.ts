// No overselling, proven under load: a product with 10 units and 1,000 shoppers who all create and
// confirm at the same time. Two set-ups, on the production build:
//  1. two instances on one PostgreSQL behind the local nginx, 500 shoppers through each;
//  2. one instance on SQLite.
// Expected: exactly 10 orders, stock 0 and never below, every other shopper refused with 409
// before any card is charged, no 5xx. Prints orders, final stock, refusals, 5xx, checkouts/s.
// Usage: npm run bench:oversell (SHOPPERS=200 for a quicker run)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { seedCatalogue } from "../server/catalogue/seed.ts";
import { type AppDatabase, openDatabase } from "../server/db/database.ts";
import { migrateToLatest } from "../server/db/migrations.ts";
import { checkout, over, priceCents, signUpAt, TEST_CARD } from "../test/support/checkout.ts";
import { nginxBinary, startCluster } from "../test/support/local-cluster.ts";
import { startServer } from "../test/support/server-process.ts";
import { type BenchRow, markdownTable, reportRows } from "./report.ts";

const PRODUCT = 13;
const UNITS = 10;
const SHOPPERS = Number(process.env.SHOPPERS ?? 1000);
const SIGN_UP_CONCURRENCY = 8;
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

interface Outcome {
  setUp: string;
  orders: number;
  finalStock: number;
  lowestStock: number;
  refusals: number;
  otherFailures: number;
  serverErrors: number;
  chargedWithoutOrder: number;
  checkoutsPerSecond: number;
}

/** Seeds the catalogue and leaves the benchmark product with UNITS units. */
async function prepare(database: AppDatabase): Promise<void> {
  await migrateToLatest(database);
  await seedCatalogue(database);
  await database.db.updateTable("products").set({ stock: UNITS, reserved: 0 }).where("id", "=", PRODUCT).execute();
}

/** Signs shoppers up a few at a time (password hashing is the slow part), spread over `bases`. */
async function shoppers(bases: string[], origin: string): Promise<Array<{ base: string; cookie: string }>> {
  const out: Array<{ base: string; cookie: string }> = [];
  let next = 0;
  const stamp = Date.now();
  await Promise.all(
    Array.from({ length: SIGN_UP_CONCURRENCY }, async () => {
      while (next < SHOPPERS) {
        const i = next++;
        const base = bases[i % bases.length]!;
        out.push({ base, cookie: await signUpAt(over(base), origin, `oversell${i}.${stamp}@example.com`) });
      }
    }),
  );
  return out;
}

/** Everyone at once; the lowest stock seen while they run is sampled from the database. */
async function race(setUp: string, database: AppDatabase, people: Array<{ base: string; cookie: string }>, origin: string): Promise<Outcome> {
  let lowest = UNITS;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const row = await database.db.selectFrom("products").select("stock").where("id", "=", PRODUCT).executeTakeFirstOrThrow();
      lowest = Math.min(lowest, row.stock);
      await new Promise((resolve) => setTimeout(resolve, 5)); // a sample every few ms, bounded by the race
    }
  })();
  const started = performance.now();
  const results = await Promise.all(
    people.map(({ base, cookie }) => checkout(over(base), { origin, cookie, items: [{ id: PRODUCT, amount: 1 }], card: TEST_CARD })),
  );
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const statuses = results.flatMap((r) => [r.created.status, r.paid?.status ?? 0]);
  const product = await database.db.selectFrom("products").select("stock").where("id", "=", PRODUCT).executeTakeFirstOrThrow();
  const orders = await database.db.selectFrom("orders").select("id").execute();
  const succeeded = await database.db.selectFrom("payments").select("id").where("status", "=", "succeeded").execute();
  const refusals = results.filter((r) => r.created.status === 409).length;
  return {
    setUp,
    orders: orders.length,
    finalStock: product.stock,
    lowestStock: Math.min(lowest, product.stock),
    refusals,
    otherFailures: results.filter((r) => r.created.status !== 409 && r.paid?.status !== 200).length,
    serverErrors: statuses.filter((s) => s >= 500).length,
    chargedWithoutOrder: succeeded.length - orders.length,
    checkoutsPerSecond: results.length / seconds,
  };
}

async function onPostgres(): Promise<Outcome | null> {
  if (!nginxBinary()) return null;
  const schema = `bench_oversell_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const databaseUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const database = openDatabase({ engine: "postgres", url: POSTGRES_URL, searchPath: schema, maxConnections: 2 });
  try {
    await prepare(database);
    const cluster = await startCluster({ databaseUrl, env: { AUTH_RATE_LIMIT_MAX: "1000000" } });
    try {
      // 500 through each instance: the shoppers' requests go to their own instance, as nginx would spread them.
      const people = await shoppers(cluster.instances.map((i) => i.url), cluster.url);
      return await race("PostgreSQL, 2 instances behind nginx", database, people, cluster.url);
    } finally {
      await cluster.close();
    }
  } finally {
    await database.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

async function onSqlite(): Promise<Outcome> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-oversell-"));
  const database = openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") });
  await prepare(database);
  const origin = "http://bench.test";
  const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: origin, AUTH_RATE_LIMIT_MAX: "1000000" });
  try {
    const people = await shoppers([server.url], origin);
    return await race("SQLite, 1 instance", database, people, origin);
  } finally {
    await server.stop();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const outcomes = [await onPostgres(), await onSqlite()].filter((o): o is Outcome => o !== null);
console.log(`\n${SHOPPERS} shoppers, ${UNITS} units of product ${PRODUCT} (${priceCents(PRODUCT) / 100} USD)\n`);
console.log("| set-up | orders | final stock | lowest stock | refusals (409) | other failures | 5xx | paid without order | checkouts/s |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const o of outcomes) {
  console.log(`| ${o.setUp} | ${o.orders} | ${o.finalStock} | ${o.lowestStock} | ${o.refusals} | ${o.otherFailures} | ${o.serverErrors} | ${o.chargedWithoutOrder} | ${o.checkoutsPerSecond.toFixed(0)} |`);
}
const rows: BenchRow[] = outcomes.flatMap((o) => [
  { bench: "oversell", measure: `${o.setUp}: orders for ${UNITS} units, ${SHOPPERS} shoppers`, value: String(o.orders), target: String(UNITS), met: o.orders === UNITS },
  { bench: "oversell", measure: `${o.setUp}: final / lowest stock`, value: `${o.finalStock} / ${o.lowestStock}`, target: "0 / 0", met: o.finalStock === 0 && o.lowestStock === 0 },
  { bench: "oversell", measure: `${o.setUp}: refused with 409, 5xx`, value: `${o.refusals}, ${o.serverErrors}`, target: `${SHOPPERS - UNITS}, 0`, met: o.refusals === SHOPPERS - UNITS && o.serverErrors === 0 },
]);
console.log(`\n${markdownTable(rows)}`);
await reportRows(rows);
const failed = rows.some((row) => row.met === false);
process.exit(failed ? 1 : 0);
