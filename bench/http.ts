// HTTP throughput of the shop against a raw node:http server answering the same bytes:
// autocannon, 50 connections, 3 rounds of 10 s (5 s with --short) alternating the raw server and the
// shop after a 2 s (1 s) warm-up of each, the median of each side; production build on SQLite. The
// load generator (this process), the shop, the raw server (bench/raw-server.ts) and the OTLP sink
// (bench/otlp-sink.ts) each run in a process of their own: none shares an event loop with another.
// Also: a signed-in page (from its personal shell) against the raw server answering its bytes, an
// uncached anonymous render of the same page (a second instance with the page cache off, whose CPU
// time per render is read from /proc), the shop's resident memory after at least 60 s of load, and
// the catalogue API with tracing off and on (OpenTelemetry's SDK, spans exported to the sink) under two samplers.
// Usage: npm run bench:http [-- --short] [-- --only /path | --only signed-in | --only uncached]
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { type HelperProcess, startHelper } from "./helper-process.ts";
import type { RawAnswers } from "./raw-server.ts";
import { type BenchRow, reportRows } from "./report.ts";

const seconds = process.argv.includes("--short") ? 5 : 10;
/** Load before each measured run, on the raw server and the shop alike, so neither is measured cold (JIT). */
const warmUpSeconds = process.argv.includes("--short") ? 1 : 2;
const only = process.argv.indexOf("--only");
/** `--only signed-in`: the signed-in page against raw, and nothing else. */
const onlySignedIn = only > 0 && process.argv[only + 1] === "signed-in";
/** `--only uncached`: the render of the page with the page cache off, and nothing else. */
const onlyUncached = only > 0 && process.argv[only + 1] === "uncached";
const ANONYMOUS = onlySignedIn || onlyUncached ? [] : only > 0 ? [process.argv[only + 1]!] : ["/api/catalogue/products", "/products/1", "/results/electronics", "/"];
const SIGNED_IN_PAGE = "/products/1";
const CATALOGUE_API = "/api/catalogue/products";
/** Rounds of each comparison, alternating its two servers (a busy moment of the shared machine hits both); the median of each side counts. */
const ROUNDS = 3;
const MEMORY_LOAD_SECONDS = 60;
const ACCEPT = { "accept-encoding": "gzip, deflate, br" };
/** The instances' public origin: sign-up must come from it, as a browser's does. */
const ORIGIN = "http://bench.test";

interface Run {
  rps: number;
  /** Requests answered in the run. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, duration = seconds): Promise<Run> {
  const result = await autocannon({ url, connections: 50, duration, headers });
  return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** CPU time (user and system) the process has used so far, in µs (from /proc: Linux). */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** A run on an instance, with the instance's CPU time per answered request: steadier than req/s on a shared machine. */
async function loadInstance(server: RunningServer, path: string, headers: Record<string, string> = ACCEPT): Promise<Run & { cpuPerRequest: number }> {
  const before = cpuMicros(server.process.pid!);
  const run = await load(`${server.url}${path}`, headers);
  return { ...run, cpuPerRequest: (cpuMicros(server.process.pid!) - before) / run.requests };
}

/** Encodings the raw server holds an answer in, as the shop sent each (it may choose another). */
const SAMPLED_ENCODINGS = ["br", "gzip", "identity"];

/**
 * The raw baseline for `url`: a bare node:http server in its own process (bench/raw-server.ts)
 * holding the shop's answers to `headers` in each encoding, given as the request asks.
 */
async function raw(base: string, url: string, headers: Record<string, string>): Promise<HelperProcess> {
  const answers: RawAnswers = [];
  for (const encoding of SAMPLED_ENCODINGS) {
    const sample = await rawGet(`${base}${url}`, { ...headers, "accept-encoding": encoding });
    if (sample.status !== 200) throw new Error(`${url}: the shop answered ${sample.status}`);
    const sent = sample.headers["content-encoding"] ?? null;
    if (!answers.some((answer) => answer.encoding === sent)) answers.push({ encoding: sent, status: sample.status, headers: sample.headers, body: sample.body.toString("base64") });
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-raw-")), "answers.json");
  fs.writeFileSync(file, JSON.stringify(answers));
  try {
    return await startHelper("raw-server.ts", [file]);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
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
async function signedInCookie(base: string, email = "bench@example.com"): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email, password: "bench-password-1", name: email }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * `cookie` with its session cache cookie renewed, as a browser holds it: better-auth's cache cookie
 * lasts a minute, after which every request of a client that keeps sending the old one (autocannon
 * does not store cookies) is a database read and a renewal. A browser stores the renewal.
 */
async function renewedCookie(base: string, cookie: string): Promise<string> {
  const token = cookie.split("; ").filter((pair) => pair.includes("session_token="));
  const response = await fetch(`${base}/api/auth/get-session`, { headers: { cookie: token.join("; ") } });
  const cache = response.headers.getSetCookie().map((set) => set.split(";")[0]!);
  if (!response.ok || !cache.some((pair) => pair.includes("session_data="))) throw new Error(`session renewal failed: ${response.status}`);
  return [...token, ...cache].join("; ");
}

const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

const rows: BenchRow[] = [];
const table: string[] = [
  "| address | raw node:http req/s | shop req/s | raw p99 | shop p50 | shop p99 | ratio to raw (rounds) | shop CPU per request |",
  "|---|---|---|---|---|---|---|---|",
];
const tracingTable: string[] = [];

/** The targets: the catalogue API at least 0.8 of raw, cached anonymous pages 0.7, each p99 at most twice raw's. */
const MIN_RATIO = { api: 0.8, page: 0.7 };
const MAX_P99_TO_RAW = 2;

/** Headers to send, or a function that gives them afresh before each run (a signed-in shopper's renewed cookies). */
type Ask = Record<string, string> | (() => Promise<Record<string, string>>);

/** Loads `url` on the raw server (same bytes) and on the shop in alternating rounds; one table line. */
async function compare(shop: RunningServer, url: string, ask: Ask, label = url): Promise<{ shop: Run; raw: Run }> {
  const fresh = async () => (typeof ask === "function" ? await ask() : ask);
  const headers = await fresh();
  const baseline = await raw(shop.url, url, headers);
  const rawRuns: Run[] = [];
  const shopRuns: Array<Run & { cpuPerRequest: number }> = [];
  try {
    await load(`${baseline.url}${url}`, headers, warmUpSeconds);
    await load(`${shop.url}${url}`, await fresh(), warmUpSeconds);
    for (let round = 0; round < ROUNDS; round++) {
      rawRuns.push(await load(`${baseline.url}${url}`, headers));
      shopRuns.push(await loadInstance(shop, url, await fresh()));
    }
  } finally {
    await baseline.stop();
  }
  const [rawRun, ours] = [median(rawRuns), median(shopRuns)];
  const ratio = ours.rps / rawRun.rps;
  const cpu = middle(shopRuns.map((run) => run.cpuPerRequest));
  const errors = shopRuns.reduce((sum, run) => sum + run.errors, 0);
  table.push(
    `| ${label} | ${Math.round(rawRun.rps)} | ${Math.round(ours.rps)} | ${rawRun.p99} ms | ${ours.p50} ms | ${ours.p99} ms | ${ratio.toFixed(2)} (${shopRuns.map((run, i) => (run.rps / rawRuns[i]!.rps).toFixed(2)).join(", ")}) | ${cpu.toFixed(0)} µs |${errors ? ` ${errors} errors` : ""}`,
  );
  const minRatio = url.startsWith("/api/") ? MIN_RATIO.api : MIN_RATIO.page;
  // Milliseconds are whole numbers here: a 1 ms raw p99 allows 2 ms.
  const maxP99 = MAX_P99_TO_RAW * Math.max(rawRun.p99, 1);
  if (!label.startsWith("signed-in")) {
    rows.push(
      { bench: "http", measure: `${label} req/s ratio to raw`, value: ratio.toFixed(2), target: `>= ${minRatio}`, met: ratio >= minRatio },
      { bench: "http", measure: `${label} p99`, value: `${ours.p99} ms`, target: `<= ${maxP99} ms (2 x raw)`, met: ours.p99 <= maxP99 },
      { bench: "http", measure: `${label} shop CPU per request`, value: `${cpu.toFixed(0)} µs`, target: "", met: null },
    );
  }
  if (errors) rows.push({ bench: "http", measure: `${label} errors`, value: String(errors), target: "0", met: false });
  return { shop: ours, raw: rawRun };
}

/** The middle run by requests per second: one slow or fast run of a shared machine does not decide. */
const median = (runs: Run[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

/** The middle value: one slow or fast run of a shared machine does not decide. */
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The catalogue API on `offShop` and `onShop` in alternating rounds (a busy moment of the machine hits both alike). */
async function alternate(offShop: RunningServer, onShop: RunningServer) {
  const offRuns: Array<Run & { cpuPerRequest: number }> = [];
  const onRuns: typeof offRuns = [];
  for (let round = 0; round < ROUNDS; round++) {
    offRuns.push(await loadInstance(offShop, CATALOGUE_API));
    onRuns.push(await loadInstance(onShop, CATALOGUE_API));
  }
  const [off, on] = [median(offRuns), median(onRuns)];
  const [offCpu, onCpu] = [middle(offRuns.map((run) => run.cpuPerRequest)), middle(onRuns.map((run) => run.cpuPerRequest))];
  return {
    off,
    on,
    ratio: on.rps / off.rps,
    rounds: onRuns.map((run, i) => (run.rps / offRuns[i]!.rps).toFixed(2)).join(", "),
    offCpu,
    onCpu,
    requests: onRuns.reduce((sum, run) => sum + run.requests, 0),
  };
}

/**
 * How each sampler is measured: parentbased_traceidratio at 0.1, the setting for production load
 * (target: at least 0.9 of the untraced rate), and always_on, every request recorded (debugging).
 */
const SAMPLERS = [
  { label: "parentbased_traceidratio 0.1", env: { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" }, share: 0.1, target: 0.9 },
  { label: "always_on", env: { OTEL_TRACES_SAMPLER: "always_on" }, share: 1, target: null },
] as const;

/**
 * The catalogue API on two instances started and warmed up alike, one without tracing and one
 * tracing with OpenTelemetry's SDK under `sampler`, exporting to the sink process: they differ in
 * tracing alone (the instance of the other rows has served minutes of pages by then, a different
 * baseline). The median of alternating rounds of each, twice: first in processes that have not yet
 * run better-auth, then after one sign-up on each. better-auth keeps its request state in an
 * AsyncLocalStorage, which on Node 20 turns on promise hooks for the rest of the process's life
 * (about 20 µs per catalogue request, tracing or not): the state of any shop a visitor has signed
 * in to, and the one the target is measured in. The sink counts the server spans it got: about the
 * sampler's share of the requests answered.
 */
async function tracingCost(sampler: (typeof SAMPLERS)[number]) {
  const sink = await startHelper("otlp-sink.ts");
  try {
    const plain = await shopInstance();
    let traced: Awaited<ReturnType<typeof shopInstance>> | undefined;
    let requests = 0;
    let fresh, signedIn;
    try {
      traced = await shopInstance({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, ...sampler.env });
      await load(`${plain.url}${CATALOGUE_API}`, ACCEPT, warmUpSeconds);
      requests += (await load(`${traced.url}${CATALOGUE_API}`, ACCEPT, warmUpSeconds)).requests;
      fresh = await alternate(plain, traced);
      await signedInCookie(plain.url, "tracing@example.com");
      await signedInCookie(traced.url, "tracing@example.com");
      requests += fresh.requests + 1;
      signedIn = await alternate(plain, traced);
      requests += signedIn.requests;
    } finally {
      await stopInstance(plain);
      if (traced) await stopInstance(traced); // its last spans leave as it shuts down
    }
    const spans = Number(await (await fetch(`${sink.url}/server-spans`)).text());
    tracingTable.push("", `Sampler ${sampler.label}:`, "", "| catalogue API | req/s | p50 | p99 | shop CPU per request | req/s on / off (rounds) |", "|---|---|---|---|---|---|");
    for (const [label, result] of [["before any sign-in", fresh], ["after a sign-in", signedIn]] as const) {
      const { off, on, ratio, rounds, offCpu, onCpu } = result;
      tracingTable.push(
        `| tracing off, ${label} | ${Math.round(off.rps)} | ${off.p50} ms | ${off.p99} ms | ${offCpu.toFixed(0)} µs | |`,
        `| tracing on, ${label} | ${Math.round(on.rps)} | ${on.p50} ms | ${on.p99} ms | ${onCpu.toFixed(0)} µs | ${ratio.toFixed(2)} (rounds ${rounds}) |${on.errors ? ` ${on.errors} errors` : ""}`,
      );
    }
    tracingTable.push(
      `(median of ${ROUNDS} alternating rounds of ${seconds} s each; spans to a local OTLP/HTTP sink process, which received ${spans} server spans for ${requests} answered requests)`,
    );
    // Sampling by trace id: the share kept is the ratio give or take a few per cent of the requests.
    const spansExpected = sampler.share === 1 ? spans >= requests : Math.abs(spans / requests - sampler.share) < 0.02;
    rows.push(
      { bench: "http", measure: `${CATALOGUE_API} req/s, tracing (${sampler.label}) / off`, value: signedIn.ratio.toFixed(2), target: sampler.target ? `>= ${sampler.target}` : "", met: sampler.target ? signedIn.ratio >= sampler.target : null },
      { bench: "http", measure: `${CATALOGUE_API} req/s, tracing (${sampler.label}) / off, before any sign-in`, value: fresh.ratio.toFixed(2), target: "", met: null },
      { bench: "http", measure: `${CATALOGUE_API} CPU per request, tracing off / ${sampler.label}`, value: (signedIn.offCpu / signedIn.onCpu).toFixed(2), target: "", met: null },
      { bench: "http", measure: `server spans exported / requests answered (${sampler.label})`, value: `${spans} / ${requests}`, target: sampler.share === 1 ? "every request" : `about ${sampler.share}`, met: spansExpected },
    );
  } finally {
    await sink.stop();
  }
}

const shop = await shopInstance();
const started = performance.now();
let shopLoadSeconds = 0;
try {
  for (const url of ANONYMOUS) {
    await compare(shop, url, ACCEPT);
    shopLoadSeconds += warmUpSeconds + ROUNDS * seconds;
  }
  if (ANONYMOUS.includes(CATALOGUE_API)) {
    for (const sampler of SAMPLERS) await tracingCost(sampler);
    shopLoadSeconds += SAMPLERS.length * 2 * seconds * ROUNDS;
  }
  if (only < 0 || onlySignedIn) {
    // Every connection is the same shopper, with the session token and a fresh cache cookie per run, as a browser has them.
    const cookie = await signedInCookie(shop.url);
    const signedIn = await compare(shop, SIGNED_IN_PAGE, async () => ({ ...ACCEPT, cookie: await renewedCookie(shop.url, cookie) }), `signed-in ${SIGNED_IN_PAGE}`);
    shopLoadSeconds += warmUpSeconds + ROUNDS * seconds;
    const ratio = signedIn.shop.rps / signedIn.raw.rps;
    rows.push(
      { bench: "http", measure: `signed-in ${SIGNED_IN_PAGE} req/s ratio to raw`, value: ratio.toFixed(2), target: ">= 0.5", met: ratio >= 0.5 },
      {
        bench: "http",
        measure: `signed-in ${SIGNED_IN_PAGE} p99 (raw's)`,
        value: `${signedIn.shop.p99} ms (${signedIn.raw.p99} ms)`,
        target: "<= 2 x raw's",
        met: signedIn.shop.p99 <= MAX_P99_TO_RAW * Math.max(signedIn.raw.p99, 1),
      },
    );
  }
  if (only < 0 || onlyUncached) {
    // The same page rendered for every request: an instance without the page cache.
    const uncachedShop = await shopInstance({ PAGE_CACHE_ENTRIES: "0" });
    await load(`${uncachedShop.url}${SIGNED_IN_PAGE}`, ACCEPT, warmUpSeconds);
    const uncachedRuns: Array<Run & { cpuPerRequest: number }> = [];
    for (let round = 0; round < ROUNDS; round++) uncachedRuns.push(await loadInstance(uncachedShop, SIGNED_IN_PAGE));
    await stopInstance(uncachedShop);
    const uncached = median(uncachedRuns);
    // What one server render costs: the shop's CPU time per answered request (from /proc), steadier than req/s here.
    const renderMs = middle(uncachedRuns.map((run) => run.cpuPerRequest)) / 1000;
    table.push(
      `| anonymous ${SIGNED_IN_PAGE}, page cache off (rounds ${uncachedRuns.map((run) => (run.cpuPerRequest / 1000).toFixed(2)).join(", ")} ms CPU) | | ${Math.round(uncached.rps)} | | ${uncached.p50} ms | ${uncached.p99} ms | | ${(renderMs * 1000).toFixed(0)} µs |`,
    );
    // Reported, not judged: what a render costs follows React and React Router as published.
    rows.push({ bench: "http", measure: `uncached ${SIGNED_IN_PAGE} render, shop CPU per request`, value: `${renderMs.toFixed(2)} ms`, target: "", met: null });
  }
  if (only < 0) {
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
console.log([...table, ...tracingTable].join("\n"));
console.log(`\n(${Math.round((performance.now() - started) / 1000)} s, ${os.cpus().length} cores, Node ${process.version})`);
await reportRows(rows);
