// Orders at scale, on the production build (SQLite under a temporary DATA_DIR):
//  1. the first page of orders for a shopper with 1,000 orders against one with 1, measured in the
//     same run (API and server-rendered page), as a ratio; target at most 1.5.
//  2. the server's resident memory with 200 live order streams open against none; target 50 MB.
//     20 shoppers with 10 tabs each, each shopper from an address of its own (as behind nginx, with
//     TRUST_PROXY=1): the shop takes at most 10 streams per shopper and 100 per client address.
// Usage: npm run bench:orders
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/database.ts";
import { startServer } from "../test/support/server-process.ts";
import { type BenchRow, reportRows } from "./report.ts";

const ORIGIN = "http://bench.test";
const DURATION_MS = 5_000;
const STREAMS = 200;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-orders-"));
const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: "100000", LOG_LEVEL: "info", TRUST_PROXY: "1" });

async function signUp(email: string): Promise<{ cookie: string; uid: string }> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email, password: "correct horse", name: email }),
  });
  const body = (await response.json()) as { user: { id: string } };
  return { cookie: response.headers.getSetCookie()[0]!.split(";")[0]!, uid: body.user.id };
}

/** The server's resident memory (its process and any children). */
function rss(): number {
  const pids = [server.process.pid!];
  for (let i = 0; i < pids.length; i++) {
    const children = fs.readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  }
  const of = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
  return Math.max(...pids.map(of));
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

try {
  const few = await signUp("one-order@example.com");
  const many = await signUp("thousand-orders@example.com");
  // The orders are written straight into the database (the shop's own order rows, as checkout
  // writes them), so the benchmark measures reading, not paying.
  const database = openDatabase({ engine: "sqlite", file: path.join(dataDir, "storefront.sqlite") });
  const basket = JSON.stringify([{ id: 1, title: "Waxed Canvas Rucksack", image: "/images/products/1.svg", rating: { rate: 4.2, count: 312 }, priceCents: 8950, description: "A bag.", amount: 1 }]);
  const rows = (uid: string, n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ id: `pi_${prefix}${String(i).padStart(6, "0")}`, user_id: uid, amount: 8950, basket, created: 1_790_000_000_000 + i * 60_000, placed: 1_790_000_000_000 + i * 60_000 }));
  await database.db.insertInto("orders").values(rows(few.uid, 1, "few")).execute();
  const manyRows = rows(many.uid, 1000, "many");
  for (let i = 0; i < manyRows.length; i += 200) await database.db.insertInto("orders").values(manyRows.slice(i, i + 200)).execute();
  await database.close();

  // Alternate the two shoppers request by request, so both see the same machine load.
  async function measure(path: string) {
    const times: Record<"few" | "many", number[]> = { few: [], many: [] };
    const end = Date.now() + DURATION_MS;
    while (Date.now() < end) {
      for (const [name, who] of [["few", few], ["many", many]] as const) {
        const started = performance.now();
        const response = await fetch(`${server.url}${path}`, { headers: { cookie: who.cookie } });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${path} answered ${response.status}`);
        times[name].push(performance.now() - started);
      }
    }
    const stats = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    };
    return { few: stats(times.few), many: stats(times.many) };
  }

  const figures: BenchRow[] = [];
  console.log("\nFirst page of orders: 1,000 orders against 1, alternating requests, %d s each\n", DURATION_MS / 1000);
  console.log("| request | orders | requests | p50 | p99 | p50 ratio (target <= 1.5) |");
  console.log("|---|---|---|---|---|---|");
  for (const target of ["/api/orders?limit=10", "/orders"]) {
    const { few: a, many: b } = await measure(target);
    console.log(`| GET ${target} | 1 | ${a.n} | ${a.p50.toFixed(2)} ms | ${a.p99.toFixed(2)} ms | |`);
    console.log(`| GET ${target} | 1,000 | ${b.n} | ${b.p50.toFixed(2)} ms | ${b.p99.toFixed(2)} ms | ${(b.p50 / a.p50).toFixed(2)} |`);
    const ratio = b.p50 / a.p50;
    figures.push({ bench: "orders", measure: `GET ${target} p50, 1,000 orders / 1`, value: ratio.toFixed(2), target: "<= 1.5", met: ratio <= 1.5 });
  }

  // Streams: 20 shoppers with 10 tabs each.
  const shoppers = await Promise.all(Array.from({ length: 20 }, (_, i) => signUp(`streams${i}@example.com`)));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = rss();
  const controllers: AbortController[] = [];
  const readers: Array<Promise<unknown>> = [];
  for (let i = 0; i < STREAMS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const shopper = i % shoppers.length;
    const headers = { cookie: shoppers[shopper]!.cookie, "x-forwarded-for": `10.0.${shopper}.1` };
    const response = await fetch(`${server.url}/api/orders/stream`, { headers, signal: controller.signal });
    if (!response.ok) throw new Error(`stream ${i} answered ${response.status}`);
    readers.push(response.arrayBuffer().catch(() => null));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = rss();
  console.log(`\nLive order streams: ${STREAMS} open on one instance\n`);
  console.log("| | resident memory |");
  console.log("|---|---|");
  console.log(`| no streams | ${mb(before)} |`);
  console.log(`| ${STREAMS} streams | ${mb(after)} |`);
  console.log(`| difference (target <= 50 MB) | ${mb(after - before)} |`);
  const grown = (after - before) / 1024 / 1024;
  figures.push({ bench: "orders", measure: `memory for ${STREAMS} live order streams`, value: mb(after - before), target: "<= 50 MB", met: grown <= 50 });
  await reportRows(figures);
  for (const controller of controllers) controller.abort();
  await Promise.all(readers);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
