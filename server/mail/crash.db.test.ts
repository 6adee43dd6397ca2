import { NO_POSTGRES } from "../../test/support/checkout.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { startSmtpServer, type TestSmtpServer } from "../../test/support/smtp-server.ts";
import { type AppDatabase, openDatabase } from "../db/database.ts";
import { withPostgresSchema } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";
import { listOutbox } from "./outbox.ts";

// The real server process, killed with SIGKILL while an order's confirmation is committed but not
// yet marked sent: first before any attempt, then while the mail server has read the message
// and not answered. After the restart the mail is sent, once, as the same message.

const ORIGIN = "http://shop.test";
const PRICE = Math.round(products.find((p) => p.id === 5)!.price * 100);
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };

let servers: RunningServer[] = [];
let smtp: TestSmtpServer | null = null;
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  servers = [];
  await smtp?.close();
  smtp = null;
});

async function post(url: string, body: unknown, cookie?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null, response };
}

/**
 * Signs a shopper up and pays for one product; resolves once the server has acknowledged the order.
 * The sign-up's own mail (confirming the address) is sent at once; it has left, and the mail server
 * forgets it, before the order is placed: the crashes below concern the order's mail alone.
 */
async function placeOrder(base: string, email: string): Promise<string> {
  const signUp = await post(`${base}/api/auth/sign-up/email`, { email, password: "correct horse", name: email });
  const cookie = signUp.response.headers.getSetCookie()[0]!.split(";")[0]!;
  expect((await smtp!.waitForAccepted(1)).map((m) => m.subject)).toEqual(["Confirm your Storefront email address"]);
  smtp!.accepted.length = 0;
  smtp!.received.length = 0;
  const created = await post(`${base}/api/payment/create`, { items: [{ id: 5, amount: 1 }], total: PRICE }, cookie);
  const paid = await post(`${base}/api/payment/confirm`, { clientSecret: created.body!.clientSecret, card: CARD }, cookie);
  expect(paid.status).toBe(200);
  return (paid.body!.paymentIntent as { id: string }).id;
}

async function crashRun(env: Record<string, string>, open: () => AppDatabase) {
  await builtPages(); // fails with a clear message when the build is missing
  smtp = await startSmtpServer();
  // The worker wakes at start-up and then only every hour: nothing is sent unless a start sends it.
  const shopEnv = { ...env, PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: "1000", SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000" };
  const start = async () => {
    const server = await startServer(shopEnv);
    servers.push(server);
    return server;
  };
  const database = open();
  try {
    const outbox = async () =>
      (await listOutbox(database.db, 10)).filter((row) => row.kind === "order_confirmation").map(({ kind, dedupe_key, status }) => ({ kind, dedupe_key, status }));

    // 1. The order commits with its confirmation; the process dies before any attempt to send it.
    const first = await start();
    const orderId = await placeOrder(first.url, `crash.${Date.now()}@example.com`);
    expect(await outbox()).toEqual([{ kind: "order_confirmation", dedupe_key: orderId, status: "pending" }]);
    expect(await first.stop("SIGKILL")).toBe(null);
    expect(smtp.received).toHaveLength(0);

    // 2. The next start sends it; the mail server reads it all and never answers; killed again.
    smtp.behaviour = "hang";
    const second = await start();
    const [halfSent] = await smtp.waitForReceived(1);
    expect(await second.stop("SIGKILL")).toBe(null);
    expect(await outbox()).toEqual([{ kind: "order_confirmation", dedupe_key: orderId, status: "pending" }]);

    // 3. The mail server answers again: the third start sends it, once, as the same message.
    smtp.behaviour = "accept";
    const third = await start();
    const [sent] = await smtp.waitForAccepted(1);
    await expect.poll(outbox, { timeout: 10_000 }).toEqual([{ kind: "order_confirmation", dedupe_key: orderId, status: "sent" }]);
    expect(await third.stop("SIGTERM")).toBe(0);
    expect(smtp.accepted).toHaveLength(1);
    expect(sent!.subject).toBe(`Your Storefront order ${orderId}`);
    expect(sent!.messageId).toBe(halfSent!.messageId);
    expect(third.logs.some((r) => r.msg === "mail sent" && r.kind === "order_confirmation")).toBe(true);
    // SMTP_URL holds a password: no process printed it.
    for (const server of [first, second, third]) expect(JSON.stringify(server.logs)).not.toContain("s3cret-pass");
  } finally {
    await database.close();
  }
}

describe("a crash between an order's commit and its confirmation's sent mark", () => {
  it("sends the confirmation once after the restart, on SQLite", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-mail-crash-"));
    try {
      await crashRun({ DATA_DIR: dataDir }, () => openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") }));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("sends the confirmation once after the restart, on PostgreSQL", async (context) => {
    const url = inject("postgresUrl");
    if (!url) {
      context.skip(NO_POSTGRES);
      return;
    }
    await withPostgresSchema("mailcrash", async (databaseUrl, schema) => {
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
