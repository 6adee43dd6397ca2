// Lighthouse (mobile preset, simulated throttling) on five pages of the production build, with a
// bare HTML page served from this process in the same run as the floor of what the network and CPU
// simulation allow on this machine. The table gives the median of N runs per page (each metric on
// its own); the targets (bench/all.ts's rows) hold in every run, so they are checked on the worst.
// Usage: npm run bench:lighthouse [-- --runs 3]
//
// Lighthouse is fetched by npx on first use (pinned: 13.x needs Node 22), not installed with the
// shop. It runs through its Node API against one Chromium for the whole run: a fresh Node process
// and browser per page would double the run's length for nothing.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BenchRow, reportRows } from "./report.ts";
import { startServer } from "../test/support/server-process.ts";

const LIGHTHOUSE = "lighthouse@12.8.2";
const PAGES = ["/", "/products/1", "/results/electronics", "/cart", "/auth"];
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) || 3 : 3;
const chrome = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const KB = 1024;

/** The parts of Lighthouse's result this bench reads. */
interface Lhr {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: NetworkRequest[] } }>;
  runtimeError?: { message: string };
}
interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
}
type Lighthouse = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;

interface Result {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Bytes of JavaScript transferred during the whole Lighthouse load (code loaded after hydration included). */
  js: number;
  /** Of those, the scripts the server-rendered document names: what hydration waits for. */
  jsInDocument: number;
}

/** Fetches Lighthouse once through npx and imports its Node API from where npx keeps it. */
async function loadLighthouse(): Promise<Lighthouse> {
  const bin = execFileSync("npx", ["--yes", "--package", LIGHTHOUSE, "-c", "command -v lighthouse"], { encoding: "utf8" }).trim();
  const root = path.resolve(fs.realpathSync(bin), "../..");
  const module = (await import(pathToFileURL(path.join(root, "core/index.js")).href)) as { default: Lighthouse };
  return module.default;
}

/** One Chromium for every run; Lighthouse opens a fresh tab and clears the origin's storage and cache each time. */
async function launchChromium(profile: string): Promise<{ port: number; close(): Promise<void> }> {
  // In a process group of its own, so that closing ends its helper processes too.
  const child = spawn(chrome, [...CHROME_FLAGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  // Closing waits for Chromium to exit: it writes its profile as it does, and a profile removed
  // meanwhile fails with ENOTEMPTY (seen once a whole run had been measured).
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group has ended already.
    }
  };
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`Chromium exited with ${code}: ${stderr}`)));
  });
  return {
    port,
    close: async () => {
      signal("SIGTERM");
      const late = setTimeout(() => signal("SIGKILL"), 10_000);
      if (child.exitCode === null && child.signalCode === null) await exited;
      clearTimeout(late);
    },
  };
}

function scriptsNamedBy(html: string): Set<string> {
  return new Set([...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!));
}

/** Lighthouse's own advice for a failed recording (NO_NAVSTART and the like on a busy machine) is to run it again. */
const ATTEMPTS = 3;

async function measure(lighthouse: Lighthouse, port: number, url: string, categories: string[]): Promise<Result> {
  let lhr: Lhr | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    lhr = (await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: categories }))?.lhr;
    if (lhr && !lhr.runtimeError) break;
    console.error(`Lighthouse failed on ${url} (attempt ${attempt} of ${ATTEMPTS}): ${lhr?.runtimeError?.message ?? "no result"}`);
  }
  if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse failed on ${url} ${ATTEMPTS} times`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scripts = (lhr.audits["network-requests"]?.details?.items ?? []).filter((r) => r.resourceType === "Script");
  const named = scriptsNamedBy(await (await fetch(url)).text());
  const bytes = (list: NetworkRequest[]) => list.reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcp: audit("first-contentful-paint"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    js: bytes(scripts),
    jsInDocument: bytes(scripts.filter((r) => named.has(new URL(r.url).pathname))),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
function summarise(results: Result[]): Result {
  const pick = (key: keyof Result) => median(results.map((r) => r[key]));
  return {
    performance: pick("performance"),
    accessibility: pick("accessibility"),
    bestPractices: pick("bestPractices"),
    seo: pick("seo"),
    fcp: pick("fcp"),
    lcp: pick("lcp"),
    tbt: pick("tbt"),
    cls: pick("cls"),
    js: pick("js"),
    jsInDocument: pick("jsInDocument"),
  };
}

const ms = (v: number) => `${Math.round(v)} ms`;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const scoreText = (v: number) => (Number.isNaN(v) ? "–" : String(v));

/**
 * Each row gives every run's value; a target holds in every run (the worst is shown) or in the
 * page's median run (the median is shown): a single run's TBT swings with Lighthouse's own
 * `about:blank` tab, which the opener policy every page keeps makes it open.
 */
function rowsFor(page: string, results: Result[]): BenchRow[] {
  const row = (measure: string, key: keyof Result, show: (v: number) => string, target: string, met: (values: number[]) => boolean, shown: "min" | "max" | "median"): BenchRow => {
    const values = results.map((r) => r[key]);
    const sorted = [...values].sort((a, b) => a - b);
    const value = shown === "min" ? sorted[0]! : shown === "max" ? sorted.at(-1)! : sorted[Math.floor(sorted.length / 2)]!;
    return {
      bench: "lighthouse",
      measure: `${page} ${measure}, ${shown === "median" ? "median" : "worst"} of ${values.length} runs`,
      value: `${show(value)} (${values.map(show).join(", ")})`,
      target,
      met: met(values),
    };
  };
  const score = (v: number) => String(v);
  const every = (test: (v: number) => boolean) => (values: number[]) => values.every(test);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return [
    row("performance score", "performance", score, "100 in the median run, >= 95 in every run", (v) => median(v) === 100 && v.every((run) => run >= 95), "median"),
    row("accessibility score", "accessibility", score, "100", every((v) => v === 100), "min"),
    row("best practices score", "bestPractices", score, "100", every((v) => v === 100), "min"),
    row("SEO score", "seo", score, "100", every((v) => v === 100), "min"),
    row("LCP", "lcp", (v) => `${(v / 1000).toFixed(2)} s`, "<= 1.5 s", every((v) => v <= 1500), "max"),
    row("TBT", "tbt", ms, "<= 50 ms in the median run", (v) => median(v) <= 50, "median"),
    row("CLS", "cls", (v) => v.toFixed(3), "0", every((v) => v === 0), "max"),
    row("JavaScript transferred", "js", kb, "<= 100 KB", every((v) => v <= 100 * KB), "max"),
  ];
}

const started = performance.now();
if (!fs.existsSync("build/server/index.js")) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
const lighthouse = await loadLighthouse();

// The baseline: the smallest page a server can send, from this machine, in this run.
const baseline = http.createServer((_req, res) =>
  res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><html lang="en"><title>baseline</title><h1>Hello</h1></html>'),
);
await new Promise<void>((resolve) => baseline.listen(0, "127.0.0.1", resolve));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}/`;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-lighthouse-"));
const shop = await startServer({ DATA_DIR: path.join(scratch, "data") });
const browser = await launchChromium(path.join(scratch, "profile"));
try {
  const base: Result[] = [];
  const pages = new Map<string, Result[]>(PAGES.map((page) => [page, []]));
  // Rounds rather than page after page, so a busy spell on the machine spreads over every page.
  for (let i = 0; i < runs; i++) {
    base.push(await measure(lighthouse, browser.port, baselineUrl, ["performance"]));
    for (const [page, results] of pages) {
      results.push(await measure(lighthouse, browser.port, `${shop.url}${page}`, ["performance", "accessibility", "best-practices", "seo"]));
    }
  }

  const b = summarise(base);
  console.log(`Lighthouse ${LIGHTHOUSE.split("@")[1]}, mobile preset (simulated Slow 4G, 4x CPU slowdown), median of ${runs} runs`);
  console.log(`Machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
  console.log("| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | JS transferred | of which named by the document | performance, every run |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  console.log(`| baseline (bare HTML) | ${b.performance} | – | – | – | ${ms(b.fcp)} | ${ms(b.lcp)} | ${ms(b.tbt)} | ${b.cls.toFixed(3)} | ${kb(b.js)} | | ${base.map((r) => r.performance).join(", ")} |`);
  const rows: BenchRow[] = [];
  for (const [page, results] of pages) {
    const r = summarise(results);
    console.log(
      `| ${page} | ${r.performance} | ${scoreText(r.accessibility)} | ${scoreText(r.bestPractices)} | ${scoreText(r.seo)} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${ms(r.tbt)} | ${r.cls.toFixed(3)} | ${kb(r.js)} | ${kb(r.jsInDocument)} | ${results.map((x) => x.performance).join(", ")} |`,
    );
    rows.push(...rowsFor(page, results));
  }
  console.log(`\nKB = 1,024 bytes, as transferred (compressed body and response headers). Whole run: ${Math.round((performance.now() - started) / 1000)} s.`);
  const missed = rows.filter((row) => !row.met);
  if (missed.length > 0) {
    console.log(`Targets missed: ${missed.map((row) => `${row.measure} ${row.value} (target ${row.target})`).join("; ")}`);
  }
  await reportRows(rows);
} finally {
  await browser.close();
  await shop.stop();
  baseline.close();
  fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // Chromium may still be writing its profile as it exits
}
