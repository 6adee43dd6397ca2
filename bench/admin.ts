// The back office's product list with 10,000 products: p95 of GET /api/admin/products (a list page,
// a page deep in the list) and of a title search, each for 10 s (5 s with --short) after a 2 s
// warm-up, 10 connections, with the shop in its own process (production build) and the load
// generator here. SQLite always; PostgreSQL too where it answers (TEST_DATABASE_URL or
// 127.0.0.1:5432/test). Also what 10,000 products cost the shop's own pages: the home page (every
// product, spec section 2) and how long an edit takes to reach the catalogue API.
// Usage: npm run bench:admin [-- --short]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { seedCatalogue } from "../server/catalogue/seed.ts";
import { type AppDatabase, openDatabase } from "../server/db/database.ts";
import { migrateToLatest } from "../server/db/migrations.ts";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { adminCookie, type Measured, measure } from "./measure.ts";
import { type BenchRow, markdownTable, reportRows } from "./report.ts";

const PRODUCTS = 10_000;
const TARGET_MS = 100;
const seconds = process.argv.includes("--short") ? 5 : 10;
const warmUpSeconds = process.argv.includes("--short") ? 1 : 2;
const CONNECTIONS = 10;
const ORIGIN = "http://bench.test";
const ADMIN = "bench.admin@example.com";
const POSTGRES_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

const ADDRESSES: Array<[string, string]> = [
  ["list, first page", "/api/admin/products?limit=25"],
  ["list, page 200 by stock", "/api/admin/products?limit=25&sort=-stock&page=200"],
  ["title search", "/api/admin/products?q=walnut&limit=25"],
  ["title search in a category", "/api/admin/products?q=lamp&category=electronics&limit=25"],
];

const WORDS = {
  look: ["Walnut", "Oak", "Slate", "Copper", "Linen", "Amber", "Cedar", "Indigo", "Ivory", "Sage", "Coral", "Onyx", "Maple", "Pearl", "Rust", "Teal", "Ash", "Birch", "Cobalt", "Jade"],
  thing: ["Desk Lamp", "Backpack", "Cardigan", "Bracelet", "Headphones", "Tote", "Scarf", "Watch", "Sneakers", "Ring", "Monitor", "Jacket", "Earrings", "Keyboard", "Shirt", "Necklace"],
};
const CATEGORIES = ["electronics", "jewelery", "men's clothing", "women's clothing"];

/** The database at its first start, then products up to 10,000 (titles from a few words, so searches find some). */
async function seed(database: AppDatabase): Promise<void> {
  await migrateToLatest(database);
  await seedCatalogue(database);
  const { top } = await database.db.selectFrom("products").select((eb) => eb.fn.max<number>("id").as("top")).executeTakeFirstOrThrow();
  const now = Date.now();
  const rows = [];
  for (let id = Number(top) + 1; id <= PRODUCTS; id++) {
    const title = `${WORDS.look[id % WORDS.look.length]} ${WORDS.thing[Math.floor(id / WORDS.look.length) % WORDS.thing.length]} No. ${id}`;
    rows.push({ id, title, price_cents: 500 + ((id * 7919) % 100_000), description: `${title}: made to last, described at some length so that the rows are about as long as real ones.`, category: CATEGORIES[id % 4]!, image: "", rating_rate: 4, rating_count: id % 300, stock: (id * 31) % 500, reserved: 0, updated: now });
  }
  for (let i = 0; i < rows.length; i += 500) await database.db.insertInto("products").values(rows.slice(i, i + 500)).execute();
  // What autovacuum does soon after so many inserts (the test server runs without it): the planner's statistics.
  if (database.engine === "postgres") await sql`analyze products`.execute(database.db);
}

/** How the shop's own pages fare with 10,000 products, and how soon an edit shows in its catalogue API. */
async function shopCosts(server: RunningServer, cookie: string) {
  const started = performance.now();
  const home = await fetch(`${server.url}/`, { headers: { "accept-encoding": "identity" } });
  const homeBytes = (await home.arrayBuffer()).byteLength;
  const homeMs = performance.now() - started;
  const product = (await (await fetch(`${server.url}/api/admin/products/5000`, { headers: { cookie } })).json()) as Record<string, unknown>;
  const edited = performance.now();
  const put = await fetch(`${server.url}/api/admin/products/5000`, {
    method: "PUT",
    headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ ...product, price: 12.34 }),
  });
  if (put.status !== 200) throw new Error(`edit failed: ${put.status}`);
  let seenMs = NaN;
  for (let i = 0; i < 500; i++) {
    const api = (await (await fetch(`${server.url}/api/catalogue/products/5000`)).json()) as { price: number };
    if (api.price === 12.34) {
      seenMs = performance.now() - edited;
      break;
    }
  }
  return { homeBytes, homeMs, seenMs };
}

async function run(setUp: string, env: Record<string, string> & { DATA_DIR: string }) {
  const server = await startServer({ PUBLIC_URL: ORIGIN, ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_MAX: "1000", LOG_LEVEL: "info", ...env });
  server.process.stdout!.removeAllListeners("data").resume();
  try {
    const cookie = await adminCookie(server.url, env.DATA_DIR, ADMIN, ORIGIN);
    const results: Array<{ label: string; path: string } & Measured> = [];
    for (const [label, address] of ADDRESSES) {
      const total = ((await (await fetch(`${server.url}${address}`, { headers: { cookie } })).json()) as { total: number }).total;
      await measure(`${server.url}${address}`, cookie, warmUpSeconds, { connections: CONNECTIONS });
      results.push({ label: `${label} (${total.toLocaleString("en-US")} found)`, path: address, ...(await measure(`${server.url}${address}`, cookie, seconds, { connections: CONNECTIONS })) });
    }
    return { setUp, results, costs: await shopCosts(server, cookie) };
  } finally {
    await server.stop();
  }
}

async function onSqlite() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-admin-"));
  const database = openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") });
  try {
    await seed(database);
  } finally {
    await database.close();
  }
  try {
    return await run("SQLite", { DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const schema = `bench_admin_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL skipped: nothing answers at ${POSTGRES_URL}.`);
    return null;
  }
  await admin.query(`create schema ${schema}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-admin-"));
  try {
    const database = openDatabase({ engine: "postgres", url: POSTGRES_URL, searchPath: schema, maxConnections: 2 });
    try {
      await seed(database);
    } finally {
      await database.close();
    }
    const databaseUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return await run("PostgreSQL", { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const outcomes = [await onSqlite(), await onPostgres()].filter((o) => o !== null);
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`\n${PRODUCTS.toLocaleString("en-US")} products, ${CONNECTIONS} connections, ${seconds} s per address\n`);
console.log("| database | request | req/s | p50 | p95 | p99 | errors |");
console.log("|---|---|---|---|---|---|---|");
for (const o of outcomes) for (const r of o.results) console.log(`| ${o.setUp} | ${r.label} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.errors} |`);
console.log("\n| database | home page (every product) | its first render | an edit seen by /api/catalogue |");
console.log("|---|---|---|---|");
for (const o of outcomes) console.log(`| ${o.setUp} | ${(o.costs.homeBytes / 1024 / 1024).toFixed(1)} MB | ${ms(o.costs.homeMs)} | ${ms(o.costs.seenMs)} |`);
const rows: BenchRow[] = outcomes.flatMap((o) =>
  o.results
    .filter((r) => r.path === ADDRESSES[0]![1] || r.path === ADDRESSES[2]![1])
    .map((r) => ({ bench: "admin", measure: `${o.setUp}: ${r.label.replace(/ \(.*\)$/, "")} p95, ${PRODUCTS} products`, value: ms(r.p95), target: `<= ${TARGET_MS} ms`, met: r.p95 <= TARGET_MS && r.errors === 0 })),
);
console.log(`\n${markdownTable(rows)}`);
await reportRows(rows);
process.exit(rows.some((row) => row.met === false) ? 1 : 0);
