import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../db/database.ts";
import { sqliteOrSkip, withPostgresSchema } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";
import { postgresOrSkip, priceCents, TEST_CARD } from "../../test/support/checkout.ts";

// Kill -9 the real server process in the middle of concurrent checkouts, start it again on the
// same database, and check the books: every payment the server acknowledged has exactly one
// order, and no order exists without a succeeded payment.

const SHOPPERS = 8;
const ACKNOWLEDGED_BEFORE_KILL = 12;
const RUN_LIMIT_MS = 15_000;
const PRICE = priceCents(5);

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  servers = [];
});

async function start(env: Record<string, string>) {
  await builtPages();
  const server = await startServer({ PUBLIC_URL: "http://shop.test", AUTH_RATE_LIMIT_MAX: "1000", ...env });
  servers.push(server);
  return server;
}

async function post(url: string, body: unknown, cookie?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://shop.test", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null, response };
}

async function shopper(base: string, i: number): Promise<string> {
  const { response } = await post(`${base}/api/auth/sign-up/email`, { email: `crash${i}.${Date.now()}@example.com`, password: "correct horse", name: "x" });
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** One shopper checking out again and again until the server dies; `acknowledged` collects the paid ids. */
async function checkOutUntilGone(base: string, cookie: string, acknowledged: { ids: string[]; onAck(): void }, deadline: number) {
  while (Date.now() < deadline) {
    try {
      const created = await post(`${base}/api/payment/create`, { items: [{ id: 5, amount: 1 }], total: PRICE }, cookie);
      const clientSecret = created.body?.clientSecret;
      if (typeof clientSecret !== "string") continue;
      const paid = await post(`${base}/api/payment/confirm`, { clientSecret, card: TEST_CARD }, cookie);
      if (paid.status === 200) {
        acknowledged.ids.push((paid.body!.paymentIntent as { id: string }).id);
        acknowledged.onAck();
      }
    } catch {
      return; // the server is gone
    }
  }
}

async function books(database: AppDatabase) {
  const payments = await database.db.selectFrom("payments").select(["id", "status"]).execute();
  const orders = await database.db.selectFrom("orders").select(["id", "amount"]).execute();
  return { payments, orders };
}

async function crashRun(env: Record<string, string>, open: () => AppDatabase) {
  const first = await start(env);
  const cookies = await Promise.all(Array.from({ length: SHOPPERS }, (_, i) => shopper(first.url, i)));
  // The kill comes the moment enough payments have been acknowledged, in the middle of the others.
  let enough = () => {};
  const enoughAcknowledged = new Promise<void>((resolve) => (enough = resolve));
  const acknowledged = {
    ids: [] as string[],
    onAck: () => acknowledged.ids.length >= ACKNOWLEDGED_BEFORE_KILL && enough(),
  };
  const deadline = Date.now() + RUN_LIMIT_MS;
  const running = Promise.all(cookies.map((cookie) => checkOutUntilGone(first.url, cookie, acknowledged, deadline)));
  await Promise.race([enoughAcknowledged, running]);
  expect(await first.stop("SIGKILL")).toBe(null);
  await running;
  expect(acknowledged.ids.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);

  const second = await start(env);
  expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  const database = open();
  try {
    const { payments, orders } = await books(database);
    const orderIds = orders.map((o) => o.id);
    const succeeded = payments.filter((p) => p.status === "succeeded").map((p) => p.id);
    // Every acknowledged payment has its order, once.
    for (const id of acknowledged.ids) expect(orderIds.filter((o) => o === id)).toHaveLength(1);
    // No order without a succeeded payment, and no succeeded payment without its order.
    expect([...orderIds].sort()).toEqual([...succeeded].sort());
    // Each order is the priced basket of its payment: one of product 5.
    expect(orders.map((o) => o.amount)).toEqual(orders.map(() => PRICE));
  } finally {
    await database.close();
  }
}

describe("a crash in the middle of checkouts", () => {
  it("loses no acknowledged payment and invents no order, on SQLite", async (context) => {
    sqliteOrSkip(context);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-crash-"));
    try {
      await crashRun({ DATA_DIR: dataDir }, () => openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") }));
    } finally {
      // The restarted server may still be writing order confirmations under DATA_DIR/mail.
      await Promise.all(servers.map((s) => s.stop("SIGKILL")));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("loses no acknowledged payment and invents no order, on PostgreSQL", async (context) => {
    const url = postgresOrSkip(context);
    await withPostgresSchema("crash", async (databaseUrl, schema) => {
      try {
        await crashRun({ DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir() }, () =>
          openDatabase({ engine: "postgres", url, searchPath: schema, maxConnections: 2 }),
        );
      } finally {
        await Promise.all(servers.map((s) => s.stop("SIGKILL")));
      }
    });
  }, 60_000);
});
