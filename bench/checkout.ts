// Checkout under load, on the production build (SQLite under a temporary DATA_DIR): N shoppers,
// each registered and signed in once, each checking out over and over with the requests the
// browser makes (price the basket and create the intent, pay with the test card, open the orders
// page; the page's live feed, a stream that stays open, is left out). Every answer is checked, and
// at the end every confirmed payment must have exactly one order in the database.
// Target: at least 300 checkouts/s with 50 shoppers and no errors.
// Usage: npm run bench:checkout -- [--shoppers 50] [--seconds 10 | --short]
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "kysely";
import { TEST_CARD } from "../lib/card.ts";
import { openDatabase } from "../server/db/database.ts";
import { startServer } from "../test/support/server-process.ts";
import { type BenchRow, markdownTable, reportRows } from "./report.ts";

const TARGET_PER_SECOND = 300;
/** The shop's public origin: writes must come from it (the same-origin rule) as a browser's do. */
const ORIGIN = "http://bench.test";
const PASSWORD = "correct horse battery";
const REQUEST_TIMEOUT_MS = 10_000;
/** A first run, not counted, so the measured one sees a warmed-up server (JIT, caches). */
const WARM_UP_MS = 1_000;
const SIGN_INS_AT_ONCE = 4;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number of at least 1`);
  return value;
}
const shoppers = option("--shoppers", 50);
const seconds = option("--seconds", process.argv.includes("--short") ? 5 : 10);

// --- HTTP: node:http with one kept-alive connection per shopper, so the client stays cheap ---------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decompressed, as the browser would read it. */
  text: string;
}

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  return body;
}

function request(base: string, agent: http.Agent, method: "GET" | "POST", target: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${target}`,
      {
        method,
        agent,
        headers: {
          // What a browser sends along with every same-origin fetch.
          "accept-encoding": "gzip, deflate, br",
          "sec-fetch-site": "same-origin",
          ...(payload === undefined ? {} : { "content-type": "application/json", origin: ORIGIN, "content-length": String(Buffer.byteLength(payload)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: decode(res.headers["content-encoding"], Buffer.concat(chunks)).toString() });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${method} ${target} timed out`)));
    req.on("error", reject);
    req.end(payload);
  });
}

// --- One shopper -------------------------------------------------------------------------------

function expectOk(step: string, answer: Answer): void {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${step} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}

interface Product {
  id: number;
  priceCents: number;
}

interface StepTimes {
  create: number;
  confirm: number;
  orders: number;
}

class Shopper {
  // With a timeout set, the agent drops an idle connection a second before the server's Keep-Alive
  // hint says the server will, rather than sending a request on a connection being closed.
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: REQUEST_TIMEOUT_MS });
  /** The shopper's cookies, kept as a browser keeps them (the session's, and any the server adds). */
  private readonly cookies = new Map<string, string>();
  /** Payments confirmed, whether or not the rest of their checkout went well. */
  paid = 0;

  constructor(
    private readonly base: string,
    private readonly email: string,
    private readonly products: Product[],
  ) {}

  /** Registers, then signs in as a returning shopper would, keeping that session. */
  async signIn(): Promise<void> {
    const body = { email: this.email, password: PASSWORD };
    expectOk("sign-up", await this.send("POST", "/api/auth/sign-up/email", { ...body, name: this.email }));
    this.cookies.clear();
    expectOk("sign-in", await this.send("POST", "/api/auth/sign-in/email", body));
    if (!this.cookies.has("storefront.session_token")) throw new Error("sign-in set no session cookie");
  }

  /** One checkout, as app/routes/payment.tsx and app/payments/TestCardField.tsx make it; the time of each step. */
  async checkOut(): Promise<StepTimes> {
    const items = this.basket();
    const total = items.reduce((sum, item) => sum + this.products.find((p) => p.id === item.id)!.priceCents * item.amount, 0);

    const started = performance.now();
    const created = await this.send("POST", "/api/payment/create", { items, total });
    expectOk("create", created);
    const clientSecret = (JSON.parse(created.text) as { clientSecret?: unknown }).clientSecret;
    const intentId = typeof clientSecret === "string" ? /^(pi_\w+?)_secret_/.exec(clientSecret)?.[1] : undefined;
    if (typeof clientSecret !== "string" || !intentId) throw new Error(`create gave no client secret: ${created.text.slice(0, 200)}`);

    const afterCreate = performance.now();
    const card = { number: TEST_CARD.replaceAll(" ", ""), expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123", postalCode: "10115" };
    const confirmed = await this.send("POST", "/api/payment/confirm", { clientSecret, card });
    expectOk("confirm", confirmed);
    const intent = (JSON.parse(confirmed.text) as { paymentIntent?: { id?: unknown; amount?: unknown } }).paymentIntent;
    if (intent?.id !== intentId || intent.amount !== total) throw new Error(`confirm answered for another payment: ${confirmed.text.slice(0, 200)}`);
    this.paid++;

    // The browser then goes to /orders: a client-side navigation, so React Router fetches the
    // orders route's data only (the root's loader does not run again).
    const afterConfirm = performance.now();
    const orders = await this.send("GET", "/orders.data?_routes=routes%2Forders");
    expectOk("orders", orders);
    // The newest order comes first on the first page: the one just paid for must be on it.
    if (!orders.text.includes(JSON.stringify(intentId))) throw new Error(`the orders page does not list order ${intentId}`);
    const done = performance.now();
    return { create: afterCreate - started, confirm: afterConfirm - afterCreate, orders: done - afterConfirm };
  }

  private async send(method: "GET" | "POST", target: string, body?: unknown): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await request(this.base, this.agent, method, target, cookie ? { cookie } : {}, body);
    for (const line of answer.headers["set-cookie"] ?? []) {
      const [, name, value] = /^([^=;]+)=([^;]*)/.exec(line) ?? [];
      if (!name) continue;
      if (!value || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  close(): void {
    this.agent.destroy();
  }

  /** One to three different products, one to three of each. */
  private basket(): Array<{ id: number; amount: number }> {
    const lines = 1 + Math.floor(Math.random() * 3);
    const picked = [...this.products].sort(() => Math.random() - 0.5).slice(0, lines);
    return picked.map((product) => ({ id: product.id, amount: 1 + Math.floor(Math.random() * 3) }));
  }
}

// --- The run -----------------------------------------------------------------------------------

interface Run {
  checkouts: StepTimes[];
  errors: string[];
  elapsedMs: number;
}

/** Every shopper checks out back to back until `ms` have passed (a checkout under way is finished). */
async function run(all: Shopper[], ms: number): Promise<Run> {
  const checkouts: StepTimes[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    all.map(async (shopper) => {
      while (performance.now() < deadline) {
        try {
          checkouts.push(await shopper.checkOut());
        } catch (error) {
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  return { checkouts, errors, elapsedMs: performance.now() - started };
}

/** CPU time (user + system, all threads) a process has used so far, in ms; Linux counts it in 1/100 s. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-checkout-"));
const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: String(shoppers * 4), LOG_LEVEL: "info" });
const team: Shopper[] = [];
try {
  // The prices the product pages showed the shopper; the server checks the total against its own.
  const catalogue = await request(server.url, new http.Agent(), "GET", "/api/catalogue/products", {});
  expectOk("catalogue", catalogue);
  const products = (JSON.parse(catalogue.text) as Array<{ id: number; price: number }>).map(({ id, price }) => ({ id, priceCents: Math.round(price * 100) }));

  // Password hashing (scrypt) makes sign-ups slow and heavy: a few at a time, so none times out.
  const setupErrors: string[] = [];
  const ready: Shopper[] = [];
  for (let first = 0; first < shoppers; first += SIGN_INS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(SIGN_INS_AT_ONCE, shoppers - first) }, (_, i) => new Shopper(server.url, `shopper${first + i}@bench.test`, products));
    team.push(...batch);
    await Promise.all(
      batch.map((shopper) =>
        shopper.signIn().then(
          () => ready.push(shopper),
          (error: unknown) => setupErrors.push(error instanceof Error ? error.message : String(error)),
        ),
      ),
    );
  }

  const warmUp = await run(ready, WARM_UP_MS);
  const serverCpuBefore = cpuMs(server.process.pid!);
  const benchCpuBefore = process.cpuUsage();
  const measured = await run(ready, seconds * 1000);
  const serverCpu = cpuMs(server.process.pid!) - serverCpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);

  // Exactly once: every confirmed payment wrote one order, and nothing else wrote any.
  const paid = ready.reduce((sum, shopper) => sum + shopper.paid, 0);
  await server.stop();
  const database = openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") });
  const { count } = await database.db.selectFrom("orders").select(sql<number>`count(*)`.as("count")).executeTakeFirstOrThrow();
  await database.close();
  const storeErrors = count === paid ? [] : [`the database holds ${count} orders for ${paid} confirmed payments`];

  const errors = [...setupErrors, ...warmUp.errors, ...measured.errors, ...storeErrors];
  const perSecond = measured.checkouts.length / (measured.elapsedMs / 1000);
  const whole = percentiles(measured.checkouts.map((t) => t.create + t.confirm + t.orders));
  const step = (name: keyof StepTimes) => percentiles(measured.checkouts.map((t) => t[name]));

  console.log(`\nCheckout: ${ready.length} shoppers, ${seconds} s after a ${WARM_UP_MS / 1000} s warm-up, SQLite, ${os.cpus().length} CPUs\n`);
  console.log("| measure | value |");
  console.log("|---|---|");
  console.log(`| checkouts completed | ${measured.checkouts.length} in ${(measured.elapsedMs / 1000).toFixed(2)} s |`);
  console.log(`| checkouts/s (target >= ${TARGET_PER_SECOND}) | ${perSecond.toFixed(0)} |`);
  console.log(`| requests/s (3 per checkout) | ${((measured.checkouts.length * 3) / (measured.elapsedMs / 1000)).toFixed(0)} |`);
  console.log(`| one checkout p50 / p99 | ${ms(whole.p50)} / ${ms(whole.p99)} |`);
  for (const name of ["create", "confirm", "orders"] as const) {
    const { p50, p99 } = step(name);
    console.log(`| ${name === "orders" ? "GET /orders.data" : `POST /api/payment/${name}`} p50 / p99 | ${ms(p50)} / ${ms(p99)} |`);
  }
  // On a shared machine the rate depends on what else runs; the server's CPU time per checkout much less so.
  console.log(`| server CPU per checkout | ${ms(serverCpu / measured.checkouts.length)} (${((serverCpu / measured.elapsedMs) * 100).toFixed(0)}% of one core) |`);
  console.log(`| bench client CPU | ${(((benchCpu.user + benchCpu.system) / 1000 / measured.elapsedMs) * 100).toFixed(0)}% of one core |`);
  console.log(`| errors (target 0) | ${errors.length} |`);
  // The first few kinds, and how many of each (payment ids aside).
  const kinds = new Map<string, number>();
  for (const error of errors.map((message) => message.replace(/pi_\w+/g, "pi_…"))) kinds.set(error, (kinds.get(error) ?? 0) + 1);
  for (const [message, times] of [...kinds].slice(0, 5)) console.log(`\n${times} x ${message}`);

  const rows: BenchRow[] = [
    { bench: "checkout", measure: `checkouts/s, ${ready.length} shoppers, SQLite`, value: `${perSecond.toFixed(0)} checkouts/s`, target: `>= ${TARGET_PER_SECOND}`, met: perSecond >= TARGET_PER_SECOND },
    { bench: "checkout", measure: "one checkout p99", value: ms(whole.p99), target: "", met: null },
    { bench: "checkout", measure: "errors", value: String(errors.length), target: "0", met: errors.length === 0 },
  ];
  console.log(`\n${markdownTable(rows)}`);
  await reportRows(rows);
} finally {
  for (const shopper of team) shopper.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
