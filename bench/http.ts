// HTTP throughput of the shop against a raw node:http server answering the same bytes, measured in
// the same run: autocannon, 50 connections, 10 s per address (5 s with --short) after a 2 s (1 s)
// warm-up of each server, production build
// on SQLite. Also: a signed-in page against an uncached anonymous render of the same page (a second
// instance with the page cache off), the shop's resident memory after at least 60 s of load, and the
// catalogue API with OpenTelemetry tracing off and on (spans exported to a local OTLP sink process).
// Usage: npm run bench:http [-- --short] [-- --only /path]
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { type BenchRow, reportRows } from "./report.ts";

const seconds = process.argv.includes("--short") ? 5 : 10;
/** Load before each measured run, on the raw server and the shop alike, so neither is measured cold (JIT). */
const warmUpSeconds = process.argv.includes("--short") ? 1 : 2;
const only = process.argv.indexOf("--only");
const ANONYMOUS = only > 0 ? [process.argv[only + 1]!] : ["/api/catalogue/products", "/products/1", "/results/electronics", "/"];
const SIGNED_IN_PAGE = "/products/1";
const CATALOGUE_API = "/api/catalogue/products";
const TRACING_ROUNDS = 3;
const MEMORY_LOAD_SECONDS = 60;
const ACCEPT = { "accept-encoding": "gzip, deflate, br" };
/** The instances' public origin: sign-up must come from it, as a browser's does. */
const ORIGIN = "http://bench.test";

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, duration = seconds): Promise<Run> {
  const result = await autocannon({ url, connections: 50, duration, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** A bare node:http server that answers every request with this status, these headers and these bytes. */
async function raw(status: number, headers: Record<string, string>, body: Buffer) {
  const server = http.createServer((_req, res) => res.writeHead(status, headers).end(body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

/** The response as sent (no decompression): status, headers to repeat, and the bytes. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const kept: Record<string, string> = {};
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === "string" && !["content-length", "transfer-encoding", "connection", "keep-alive", "date"].includes(key)) kept[key] = value;
          }
          resolve({ status: res.statusCode ?? 200, headers: kept, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}

/** Starts a production instance on a fresh SQLite database; its log lines are drained, not parsed. */
async function shopInstance(env: Record<string, string> = {}): Promise<RunningServer & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-http-"));
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "info", PUBLIC_URL: ORIGIN, ...env });
  server.process.stdout!.removeAllListeners("data").resume();
  return { ...server, dataDir };
}

async function stopInstance(server: RunningServer & { dataDir: string }) {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** Registers a shopper and returns the session cookie to send. */
async function signedInCookie(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email: "bench@example.com", password: "bench-password-1", name: "bench@example.com" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

const rows: BenchRow[] = [];
const table: string[] = ["| address | raw node:http req/s | shop req/s | shop p50 | shop p99 | ratio to raw |", "|---|---|---|---|---|---|"];

/** Loads `url` on the raw server (same bytes) and then on the shop; one table line. */
async function compare(base: string, url: string, headers: Record<string, string>, label = url): Promise<Run> {
  const sample = await rawGet(`${base}${url}`, headers);
  if (sample.status !== 200) throw new Error(`${label}: the shop answered ${sample.status}`);
  const baseline = await raw(sample.status, sample.headers, sample.body);
  await load(`${baseline.url}${url}`, headers, warmUpSeconds);
  const rawRun = await load(`${baseline.url}${url}`, headers);
  await baseline.close();
  await load(`${base}${url}`, headers, warmUpSeconds);
  const ours = await load(`${base}${url}`, headers);
  const ratio = ours.rps / rawRun.rps;
  table.push(
    `| ${label} | ${Math.round(rawRun.rps)} | ${Math.round(ours.rps)} | ${ours.p50} ms | ${ours.p99} ms | ${ratio.toFixed(2)} |${ours.errors ? ` ${ours.errors} errors` : ""}`,
  );
  const api = url.startsWith("/api/");
  const [minRatio, maxP99] = api ? [0.7, 20] : [0.5, 50];
  if (!label.startsWith("signed-in")) {
    rows.push(
      { bench: "http", measure: `${label} req/s ratio to raw`, value: ratio.toFixed(2), target: `>= ${minRatio}`, met: ratio >= minRatio },
      { bench: "http", measure: `${label} p99`, value: `${ours.p99} ms`, target: `< ${maxP99} ms`, met: ours.p99 < maxP99 },
    );
  }
  if (ours.errors) rows.push({ bench: "http", measure: `${label} errors`, value: String(ours.errors), target: "0", met: false });
  return ours;
}

/** The middle run by requests per second: one slow or fast run of a shared machine does not decide. */
const median = (runs: Run[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

/**
 * The catalogue API on the (warm) shop without tracing and on an instance exporting every request's
 * span, in alternating rounds (a busy moment of the machine hits both alike); the median of each.
 */
async function tracingCost(shopUrl: string) {
  const sink = spawn(process.execPath, ["--import", "tsx", path.join("bench", "otlp-sink.ts")], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const sinkUrl = await new Promise<string>((resolve, reject) => {
      sink.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      sink.once("exit", (code) => reject(new Error(`the OTLP sink exited with ${code}`)));
    });
    const traced = await shopInstance({ OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl });
    try {
      await load(`${traced.url}${CATALOGUE_API}`, ACCEPT, warmUpSeconds);
      const offRuns: Run[] = [];
      const onRuns: Run[] = [];
      for (let round = 0; round < TRACING_ROUNDS; round++) {
        offRuns.push(await load(`${shopUrl}${CATALOGUE_API}`, ACCEPT));
        onRuns.push(await load(`${traced.url}${CATALOGUE_API}`, ACCEPT));
      }
      const [off, on] = [median(offRuns), median(onRuns)];
      const ratio = on.rps / off.rps;
      table.push(
        "",
        "| catalogue API | req/s | p50 | p99 |",
        "|---|---|---|---|",
        `| tracing off | ${Math.round(off.rps)} | ${off.p50} ms | ${off.p99} ms |`,
        `| tracing on (OTLP/HTTP to a local sink) | ${Math.round(on.rps)} | ${on.p50} ms | ${on.p99} ms |${on.errors ? ` ${on.errors} errors` : ""}`,
        `| on / off | ${ratio.toFixed(2)} | | |`,
        `(median of ${TRACING_ROUNDS} alternating rounds of ${seconds} s each; rounds on / off: ${onRuns.map((r, i) => (r.rps / offRuns[i]!.rps).toFixed(2)).join(", ")})`,
      );
      rows.push({ bench: "http", measure: `${CATALOGUE_API} req/s, tracing on / off`, value: ratio.toFixed(2), target: ">= 0.9", met: ratio >= 0.9 });
    } finally {
      await stopInstance(traced);
    }
  } finally {
    sink.kill("SIGTERM");
  }
}

const shop = await shopInstance();
const started = performance.now();
let shopLoadSeconds = 0;
try {
  for (const url of ANONYMOUS) {
    await compare(shop.url, url, ACCEPT);
    shopLoadSeconds += warmUpSeconds + seconds;
  }
  if (ANONYMOUS.includes(CATALOGUE_API)) {
    await tracingCost(shop.url);
    shopLoadSeconds += seconds * TRACING_ROUNDS;
  }
  if (only < 0) {
    const cookie = await signedInCookie(shop.url);
    const signedIn = await compare(shop.url, SIGNED_IN_PAGE, { ...ACCEPT, cookie }, `signed-in ${SIGNED_IN_PAGE}`);
    shopLoadSeconds += warmUpSeconds + seconds;
    // The same page rendered for every request: an instance without the page cache.
    const uncachedShop = await shopInstance({ PAGE_CACHE_ENTRIES: "0" });
    await load(`${uncachedShop.url}${SIGNED_IN_PAGE}`, ACCEPT, warmUpSeconds);
    const uncached = await load(`${uncachedShop.url}${SIGNED_IN_PAGE}`, ACCEPT);
    await stopInstance(uncachedShop);
    table.push(`| anonymous ${SIGNED_IN_PAGE}, page cache off | | ${Math.round(uncached.rps)} | ${uncached.p50} ms | ${uncached.p99} ms | |`);
    const cost = uncached.rps / signedIn.rps;
    rows.push({ bench: "http", measure: `signed-in ${SIGNED_IN_PAGE} cost / uncached anonymous render`, value: cost.toFixed(2), target: "<= 1.25", met: cost <= 1.25 });

    // Memory after at least 60 s of this load on the one instance.
    if (shopLoadSeconds < MEMORY_LOAD_SECONDS) await load(`${shop.url}/`, ACCEPT, MEMORY_LOAD_SECONDS - shopLoadSeconds);
    const rss = residentBytes(shop.process.pid!) / 1024 / 1024;
    const loaded = Math.max(shopLoadSeconds, MEMORY_LOAD_SECONDS);
    table.push("", `Resident memory of the shop after ${loaded} s of load: ${rss.toFixed(0)} MB.`);
    rows.push({ bench: "http", measure: `resident memory after ${loaded} s of load`, value: `${rss.toFixed(0)} MB`, target: "<= 200 MB", met: rss <= 200 });
  }
} finally {
  await stopInstance(shop);
}
console.log(table.join("\n"));
console.log(`\n(${Math.round((performance.now() - started) / 1000)} s, ${os.cpus().length} cores, Node ${process.version})`);
await reportRows(rows);
