// The shops bench/checkout.ts loads, each on the production build in processes of its own: one
// instance on SQLite, and two instances on one PostgreSQL database behind the local nginx. Each
// starts from a fresh store of its own (a temporary DATA_DIR; a database the bench creates and
// drops), with enough stock that no checkout is refused for the lack of it, and checks at the end
// that every confirmed payment has exactly one order and that the stock adds up.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { seedCatalogue } from "../server/catalogue/seed.ts";
import { type AppDatabase, openDatabase } from "../server/db/database.ts";
import { migrateToLatest } from "../server/db/migrations.ts";
import { nginxBinary, startCluster } from "../test/support/local-cluster.ts";
import { startServer } from "../test/support/server-process.ts";

/** Units of every product at the start: far more than a run sells (a refusal would be an error). */
const STOCK = 10_000_000;
/** The PostgreSQL server: the bench only creates and drops a database of its own there. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * What the shop is told so that 50 shoppers can act as a crowd: each signs up once and then
 * checks out several times a second, which the per-shopper limits (sign-ins, and 30 payment
 * intents a minute) exist to stop.
 */
const crowdEnv = (shoppers: number) => ({ AUTH_RATE_LIMIT_MAX: String(shoppers * 4), PAYMENT_CREATE_RATE_LIMIT: "1000000" });

export interface BenchShop {
  /** "SQLite, 1 instance", say. */
  name: string;
  /** Where the shoppers send their requests. */
  url: string;
  /** The shop's public origin (PUBLIC_URL). */
  origin: string;
  /** The shop's own processes (not nginx or PostgreSQL), whose CPU time the bench reads. */
  pids: number[];
  /** The processes the shop's requests also keep busy (nginx, PostgreSQL's backends), by name, read once warmed up. */
  helpers(): Promise<Array<{ name: string; pids: number[] }>>;
  /** Stops the shop, checks its store against `paid` confirmed payments (the problems found), then removes it. */
  finish(paid: number): Promise<string[]>;
}

/** Migrates, seeds the catalogue and gives every product STOCK units. */
async function prepare(database: AppDatabase): Promise<void> {
  await migrateToLatest(database);
  await seedCatalogue(database);
  await database.db.updateTable("products").set({ stock: STOCK, reserved: 0 }).execute();
}

/**
 * Exactly once, and no unit lost or made up: one order per confirmed payment, each succeeded
 * payment with its order, and each product's stock down by the units its orders hold, with
 * `reserved` equal to the units still held.
 */
async function check(database: AppDatabase, paid: number): Promise<string[]> {
  const problems: string[] = [];
  const db = database.db;
  const orders = await db.selectFrom("orders").select("basket").execute();
  if (orders.length !== paid) problems.push(`the database holds ${orders.length} orders for ${paid} confirmed payments`);
  const { succeeded } = await db.selectFrom("payments").select(sql<number>`count(*)`.as("succeeded")).where("status", "=", "succeeded").executeTakeFirstOrThrow();
  if (Number(succeeded) !== orders.length) problems.push(`${succeeded} payments succeeded but ${orders.length} orders were written`);
  const sold = new Map<number, number>();
  for (const order of orders) for (const line of JSON.parse(order.basket) as Array<{ id: number; amount: number }>) sold.set(line.id, (sold.get(line.id) ?? 0) + line.amount);
  const held = new Map<number, number>();
  const holds = await db.selectFrom("reservations").select(["product_id", sql<number>`sum(amount)`.as("units")]).where("state", "=", "held").groupBy("product_id").execute();
  for (const row of holds) held.set(row.product_id, Number(row.units));
  for (const product of await db.selectFrom("products").select(["id", "stock", "reserved"]).execute()) {
    const expected = STOCK - (sold.get(product.id) ?? 0);
    if (product.stock !== expected) problems.push(`product ${product.id} has ${product.stock} units, its orders leave ${expected}`);
    if (product.reserved !== (held.get(product.id) ?? 0)) problems.push(`product ${product.id} has ${product.reserved} reserved, its reservations hold ${held.get(product.id) ?? 0}`);
  }
  return problems;
}

export async function sqliteShop(shoppers: number): Promise<BenchShop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-checkout-"));
  const file = path.join(dataDir, "storefront.sqlite");
  const setup = openDatabase({ engine: "sqlite", file });
  await prepare(setup).finally(() => setup.close());
  const origin = "http://bench.test";
  const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: origin, LOG_LEVEL: "info", ...crowdEnv(shoppers) }).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    name: "SQLite, 1 instance",
    url: server.url,
    origin,
    pids: [server.process.pid!],
    helpers: async () => [],
    async finish(paid) {
      try {
        await server.stop();
        const database = openDatabase({ engine: "sqlite", file });
        try {
          return await check(database, paid);
        } finally {
          await database.close();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A process and its children (nginx's master and its workers). */
function withChildren(pid: number): number[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
}

/** Why the PostgreSQL run cannot happen here, or null when it can. */
export async function postgresUnavailable(): Promise<string | null> {
  if (!nginxBinary()) return "nginx is not installed (Debian: apt-get install -y nginx; or set NGINX_PATH)";
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return `no PostgreSQL answers at ${POSTGRES_URL.replace(/\/\/[^@/]*@/, "//")} (${error instanceof Error ? error.message : String(error)}; BENCH_POSTGRES_URL names another)`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs `statement` on the server's maintenance database (CREATE and DROP DATABASE cannot run inside the target). */
async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function postgresShop(shoppers: number): Promise<BenchShop> {
  const name = `storefront_bench_checkout_${process.pid}_${Date.now()}`;
  await onServer(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const drop = () => onServer(`drop database if exists ${name} with (force)`);
  try {
    const setup = openDatabase({ engine: "postgres", url: databaseUrl, maxConnections: 1 });
    await prepare(setup).finally(() => setup.close());
    const cluster = await startCluster({ databaseUrl, instances: 2, env: { LOG_LEVEL: "info", ...crowdEnv(shoppers) } });
    return {
      name: "PostgreSQL, 2 instances behind nginx",
      url: cluster.url,
      origin: cluster.url,
      pids: cluster.instances.map((instance) => instance.server!.process.pid!),
      async helpers() {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        try {
          // The bench database's backends only: the server's shared processes (WAL writer, checkpointer) serve other databases too.
          const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1", [name]);
          return [
            { name: "PostgreSQL (the database's backends)", pids: rows.map((row) => row.pid) },
            { name: "nginx", pids: withChildren(cluster.proxyPid) },
          ];
        } finally {
          await client.end();
        }
      },
      async finish(paid) {
        try {
          await cluster.close();
          const database = openDatabase({ engine: "postgres", url: databaseUrl, maxConnections: 1 });
          try {
            return await check(database, paid);
          } finally {
            await database.close();
          }
        } finally {
          await drop();
        }
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}
