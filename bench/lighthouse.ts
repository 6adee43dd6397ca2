// Lighthouse (mobile preset) on the home page of a production build, against a bare baseline page
// measured in the same run. Usage: npm run bench:lighthouse [-- --runs 3]
// Lighthouse itself is fetched on first use by npx (pinned: 13.x needs Node 22), not installed with the shop.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startServer } from "../server/test-support/server-process.ts";

const LIGHTHOUSE = "lighthouse@12.8.2";
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 3;
const chrome = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

interface Result {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

// Async on purpose: the baseline server lives in this process and must keep answering.
const run = promisify(execFile);

async function lighthouse(url: string): Promise<Result> {
  const out = path.join(os.tmpdir(), `lh-${process.pid}-${Date.now()}.json`);
  await run(
    "npx",
    [
      "--yes",
      LIGHTHOUSE,
      url,
      "--only-categories=performance",
      "--output=json",
      `--output-path=${out}`,
      "--quiet",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run --disable-sync",
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, timeout: 180_000 },
  );
  const report = JSON.parse(fs.readFileSync(out, "utf8"));
  fs.rmSync(out);
  const audit = (id: string) => report.audits[id].numericValue as number;
  return {
    score: Math.round(report.categories.performance.score * 100),
    fcp: audit("first-contentful-paint"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    si: audit("speed-index"),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
function summarise(results: Result[]): Result {
  return {
    score: median(results.map((r) => r.score)),
    fcp: median(results.map((r) => r.fcp)),
    lcp: median(results.map((r) => r.lcp)),
    tbt: median(results.map((r) => r.tbt)),
    cls: median(results.map((r) => r.cls)),
    si: median(results.map((r) => r.si)),
  };
}

if (!fs.existsSync("build/server/index.js")) execFileSync("npx", ["react-router", "build"], { stdio: "inherit" });

// The baseline: the smallest page a server can send, on the same machine, in the same run.
const baseline = http.createServer((_req, res) =>
  res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><html lang="en"><title>baseline</title><h1>Hello</h1></html>'),
);
await new Promise<void>((resolve) => baseline.listen(0, "127.0.0.1", resolve));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}/`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
const shop = await startServer({ DATA_DIR: dataDir });
try {
  const base: Result[] = [];
  const home: Result[] = [];
  for (let i = 0; i < runs; i++) {
    base.push(await lighthouse(baselineUrl));
    home.push(await lighthouse(`${shop.url}/`));
  }
  const b = summarise(base);
  const h = summarise(home);
  const ms = (v: number) => `${Math.round(v)} ms`;
  console.log(`Lighthouse ${LIGHTHOUSE.split("@")[1]}, mobile preset (simulated throttling), median of ${runs} runs`);
  console.log(`Machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
  console.log("| page | score | FCP | LCP | TBT | CLS | Speed Index |");
  console.log("|---|---|---|---|---|---|---|");
  console.log(`| baseline (bare HTML) | ${b.score} | ${ms(b.fcp)} | ${ms(b.lcp)} | ${ms(b.tbt)} | ${b.cls.toFixed(3)} | ${ms(b.si)} |`);
  console.log(`| home / | ${h.score} | ${ms(h.fcp)} | ${ms(h.lcp)} | ${ms(h.tbt)} | ${h.cls.toFixed(3)} | ${ms(h.si)} |`);
  console.log(`\nHome LCP is ${(h.lcp / b.lcp).toFixed(2)}x the baseline's; every home score: ${home.map((r) => r.score).join(", ")}.`);
  if (h.score < 95) process.exitCode = 1;
} finally {
  await shop.stop();
  baseline.close();
  fs.rmSync(dataDir, { recursive: true });
}
