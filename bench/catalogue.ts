// The shop at 100,000 products, every figure of the catalogue's targets on each engine: 100,000
// generated products imported by the real command (timed, in its own process), then the built shop
// started on them (timed to its "listening" line) and measured: the home page's size, search's p95
// (suggestions and the results page), how soon an edit or a back-office import is found by search
// on every instance, resident memory after a mixed load, cached pages' throughput against a shop
// with the embedded catalogue, and the back office's list and title search. SQLite always;
// PostgreSQL too where its server answers (TEST_DATABASE_URL or 127.0.0.1:5432/test), two instances
// on a database of its own there, dropped after. The load generator runs here; each shop in its own process.
// Usage: npm run bench:catalogue [-- --short]   (needs `npm run build`)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { generatedProduct, searchQueries, seededRandom, writeGeneratedCatalogue } from "./generated-catalogue.ts";
import { adminCookie, type Measured, measure } from "./measure.ts";
import { type BenchRow, reportRows } from "./report.ts";

const short = process.argv.includes("--short");
const PRODUCTS = 100_000;
/** Each search and back-office address, after its warm-up. */
const seconds = short ? 5 : 10;
const warmUpSeconds = short ? 1 : 2;
const MIXED_SECONDS = short ? 20 : 60;
/** Rounds of the throughput comparison, alternating the two shops; the middle round's ratio counts. */
const ROUNDS = short ? 1 : 5;
const ROUND_SECONDS = 3;
/** Search, the mixed load and the back office: as bench/admin.ts. Cached pages: as bench/http.ts. */
const CONNECTIONS = 10;
const PAGE_CONNECTIONS = 50;
/** How long a written product may take to be found before the bench stops asking. */
const FOUND_GIVE_UP_MS = 15_000;
const ORIGIN = "http://bench.test";
const ADMIN = "bench.admin@example.com";
const POSTGRES_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

const SEEDED = JSON.parse(fs.readFileSync("catalogue/products.json", "utf8")) as Array<{ id: number; category: string }>;
const FIRST_ID = Math.max(...SEEDED.map((product) => product.id)) + 1;
const LAST_ID = FIRST_ID + PRODUCTS - 1;
const CATEGORIES = [...new Set(SEEDED.map((product) => product.category))].sort();
const PER_PAGE = 48;
const API_PAGE = 1000;
const QUERIES = searchQueries();

const suggestions = (q: string) => `/api/search?${new URLSearchParams({ q, limit: "6" })}`;
const resultsPage = (q: string) => `/search?${new URLSearchParams({ q })}`;

/** The queries in turn, from `offset` on: each load goes on where the last one stopped. */
function inTurn(address: (q: string) => string, offset = 0): () => string {
  let next = offset;
  return () => address(QUERIES[next++ % QUERIES.length]!);
}

/** Pages, the catalogue API and search, picked at random (the same sequence every run). No page is past the last. */
function mixedAddresses(): () => string {
  const random = seededRandom(100_000);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const upTo = (n: number) => 1 + Math.floor(random() * n);
  const sorts = ["", "sort=price-asc&", "sort=price-desc&", "sort=rating&"];
  const kinds = [
    () => `/?page=${upTo(Math.floor(LAST_ID / PER_PAGE))}`,
    () => `/results/${encodeURIComponent(pick(CATEGORIES))}?${pick(sorts)}page=${upTo(Math.floor(PRODUCTS / CATEGORIES.length / PER_PAGE))}`,
    () => `/products/${upTo(LAST_ID)}`,
    () => `/api/catalogue/products?page=${upTo(Math.floor(LAST_ID / API_PAGE))}`,
    () => `/api/catalogue/products/${upTo(LAST_ID)}`,
    () => suggestions(pick(QUERIES)),
    () => resultsPage(pick(QUERIES)),
  ];
  return () => pick(kinds)();
}

type Key =
  | "import" | "importMemory" | "start" | "home" | "firstSearch" | "suggestions" | "results" | "foundEdit" | "foundImport"
  | "rss" | "hwm" | "ratioHome" | "ratioCategory" | "adminList" | "adminSearch" | "errors";
/** One engine's measured figures, each with a note to print beside it (the instances' own values, a rate). */
type Figures = Map<Key, { value: number; note?: string }>;

const inSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const inMs = (ms: number) => `${ms.toFixed(0)} ms`;
const atMost = (limit: number) => (value: number) => value <= limit;
/** What each figure is, how it prints, and its target (none: reported only). NaN never meets one. */
const FIGURES: Array<[Key, { label: string; show: (value: number) => string; target?: [string, (value: number) => boolean] }]> = [
  ["import", { label: `import of ${PRODUCTS.toLocaleString("en-US")} rows (\`npm run catalogue -- import\`)`, show: inSeconds, target: ["<= 60 s", atMost(60_000)] }],
  ["importMemory", { label: "the import's peak resident memory", show: (mb) => `${mb.toFixed(0)} MB` }],
  ["start", { label: "start, spawn to \"listening\" (worst instance)", show: inSeconds, target: ["<= 3 s", atMost(3_000)] }],
  ["home", { label: "home page's HTML, identity", show: (kb) => `${kb.toFixed(1)} KB`, target: ["<= 150 KB", atMost(150)] }],
  ["firstSearch", { label: "first search after a start (worst instance)", show: inMs }],
  ["suggestions", { label: `suggestions \`/api/search?q=\` p95, ${CONNECTIONS} connections`, show: inMs, target: ["<= 30 ms", atMost(30)] }],
  ["results", { label: `results page \`/search?q=\` p95, ${CONNECTIONS} connections`, show: inMs, target: ["<= 100 ms", atMost(100)] }],
  ["foundEdit", { label: "a title edit found by search, every instance (each)", show: inMs, target: ["<= 1,000 ms", atMost(1_000)] }],
  ["foundImport", { label: "a back-office import found by search, every instance (each)", show: inMs, target: ["<= 1,000 ms", atMost(1_000)] }],
  ["rss", { label: `resident memory after ${MIXED_SECONDS} s of mixed load, ${CONNECTIONS} connections`, show: (mb) => `${mb.toFixed(0)} MB`, target: ["<= 400 MB", atMost(400)] }],
  ["hwm", { label: "its peak (VmHWM)", show: (mb) => `${mb.toFixed(0)} MB` }],
  ["ratioHome", { label: `cached \`/\` req/s, ratio to the ${SEEDED.length}-product shop (each round; shop CPU per request, ours / its)`, show: (r) => r.toFixed(2), target: [">= 0.9", (r) => r >= 0.9] }],
  ["ratioCategory", { label: `cached \`/results/electronics\` req/s, ratio to the ${SEEDED.length}-product shop (CPU)`, show: (r) => r.toFixed(2), target: [">= 0.9", (r) => r >= 0.9] }],
  ["adminList", { label: `back office list p95, ${CONNECTIONS} connections`, show: inMs, target: ["<= 100 ms", atMost(100)] }],
  ["adminSearch", { label: `back office title search p95, ${CONNECTIONS} connections`, show: inMs, target: ["<= 100 ms", atMost(100)] }],
  ["errors", { label: "failed or non-2xx answers under load", show: String, target: ["0", (n) => n === 0] }],
];

/** One table, a figure a line and an engine a column; the same as rows for bench/all.ts (values "SQLite; PostgreSQL"). */
function printFigures(outcomes: Array<{ engine: string; figures: Figures | string }>): BenchRow[] {
  const lines = [`| figure | ${outcomes.map((o) => o.engine).join(" | ")} | target | met |`, `|---|${outcomes.map(() => "---|").join("")}---|---|`];
  const rows: BenchRow[] = [];
  for (const [key, { label, show, target }] of FIGURES) {
    const cells = outcomes.map(({ figures }) => {
      if (typeof figures === "string") return figures.split(":")[0]!;
      const figure = figures.get(key);
      return figure ? `${show(figure.value)}${figure.note ? ` (${figure.note})` : ""}` : "not measured";
    });
    // A skipped engine is not judged; a failed one misses every target.
    const measured = outcomes.flatMap(({ figures }) => (typeof figures !== "string" ? [figures.get(key)?.value ?? NaN] : figures.startsWith("failed") ? [NaN] : []));
    const met = target ? measured.every((value) => target[1](value)) : null;
    lines.push(`| ${label} | ${cells.join(" | ")} | ${target?.[0] ?? ""} | ${met === null ? "" : met ? "yes" : "NO"} |`);
    rows.push({ bench: "catalogue", measure: `${label} (${outcomes.map((o) => o.engine).join("; ")})`, value: cells.join("; "), target: target?.[0] ?? "", met });
  }
  for (const { engine, figures } of outcomes) if (typeof figures === "string") lines.push(`\n${engine} ${figures}`);
  console.log(`\n${lines.join("\n")}`);
  return rows;
}

type Env = Record<string, string | undefined> & { DATA_DIR: string };

/** Where one engine's shops keep their data; `close` removes it all. */
interface Store {
  engine: "SQLite" | "PostgreSQL";
  /** The catalogue's store, for instance `n` (and the import command: 0). */
  env(n: number): Env;
  /** A fresh store of its own: the shop seeds the embedded catalogue at its first start. */
  baseline: Env;
  instances: number;
  close(): Promise<void>;
}

const temporary = () => fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-catalogue-"));

function sqliteStore(): Store {
  const [dataDir, baselineDir] = [temporary(), temporary()];
  return {
    engine: "SQLite",
    env: () => ({ DATA_DIR: dataDir, DATABASE_URL: undefined }),
    baseline: { DATA_DIR: baselineDir, DATABASE_URL: undefined },
    instances: 1,
    close: async () => {
      for (const dir of [dataDir, baselineDir]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Two databases of their own on the test database's server (the catalogue's, the baseline's), or
 * null when nothing answers there. Databases, not schemas: the shop's LISTEN channels are one per
 * database, and tests on other schemas of the test database would drop these shops' cached pages.
 */
async function postgresStore(): Promise<Store | null> {
  const server = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await server.connect();
  } catch {
    return null;
  }
  const names = [`storefront_bench_catalogue_${process.pid}`, `storefront_bench_catalogue_baseline_${process.pid}`];
  for (const name of names) await server.query(`create database ${name}`);
  const url = (name: string) => Object.assign(new URL(POSTGRES_URL), { pathname: `/${name}` }).href;
  const dirs = [temporary(), temporary(), temporary()];
  return {
    engine: "PostgreSQL",
    env: (n) => ({ DATABASE_URL: url(names[0]!), DATA_DIR: dirs[n]! }),
    baseline: { DATABASE_URL: url(names[1]!), DATA_DIR: dirs[2]! },
    instances: 2,
    close: async () => {
      for (const name of names) await server.query(`drop database if exists ${name} with (force)`);
      await server.end();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

/** CPU time (user and system) the process has used so far, in µs (from /proc: Linux, 100 ticks a second). */
const cpuMicros = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

/** `npm run catalogue -- import FILE` in its own process: its time, and its peak memory read from /proc while it runs. */
async function importFile(file: string, env: Env): Promise<{ ms: number; peakMb: number; said: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "server/catalogue/transfer/cli.ts", "import", file], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let said = "";
  child.stdout.on("data", (chunk: Buffer) => (said += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
  let peakMb = 0;
  const sample = setInterval(() => {
    const hwm = status(child.pid!, "VmHWM");
    if (hwm > peakMb) peakMb = hwm;
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sample);
  if (code !== 0 || !said.includes(`added ${PRODUCTS.toLocaleString("en-US")}`)) throw new Error(`the import ended with ${code}: ${said}`);
  return { ms: performance.now() - started, peakMb, said: said.trim() };
}

async function startTimed(env: Env): Promise<{ server: RunningServer; ms: number }> {
  const started = performance.now();
  const server = await startServer({ PUBLIC_URL: ORIGIN, ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_MAX: "1000", LOG_LEVEL: "info", ...env }, 60_000);
  const ms = performance.now() - started;
  server.process.stdout!.removeAllListeners("data").resume();
  return { server, ms };
}

/** How long the first search after a start takes (the index is made then); 200 expected. */
async function firstSearch(base: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${suggestions("walnut")}`);
  if (response.status !== 200) throw new Error(`search answered ${response.status}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/** Milliseconds from `write`'s answer until search on each of `bases` finds product `id` by `word` (NaN: not within FOUND_GIVE_UP_MS). */
async function foundAfter(write: () => Promise<void>, word: string, id: number, bases: string[]): Promise<number[]> {
  await write();
  const written = performance.now();
  return Promise.all(
    bases.map(async (base) => {
      while (performance.now() - written < FOUND_GIVE_UP_MS) {
        const { results } = (await (await fetch(`${base}${suggestions(word)}`)).json()) as { results: Array<{ id: number }> };
        if (results.some((result) => result.id === id)) return performance.now() - written;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return NaN;
    }),
  );
}

/** A word no product has: nine letters at random. */
const newWord = () => Array.from({ length: 9 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/** An edit of a title through the back office on `bases[0]`, then a product added by its import: when each is found on every instance. */
async function freshness(bases: string[], cookie: string): Promise<{ edit: number[]; import: number[] }> {
  const headers = { cookie, origin: ORIGIN, "content-type": "application/json" };
  const id = FIRST_ID + 4_999;
  const product = (await (await fetch(`${bases[0]}/api/admin/products/${id}`, { headers })).json()) as { title: string };
  const edited = newWord();
  const edit = await foundAfter(
    async () => {
      const put = await fetch(`${bases[0]}/api/admin/products/${id}`, { method: "PUT", headers, body: JSON.stringify({ ...product, title: `${product.title} ${edited}` }) });
      if (put.status !== 200) throw new Error(`the edit answered ${put.status}: ${await put.text()}`);
    },
    edited,
    id,
    bases,
  );
  const added = newWord();
  const imported = await foundAfter(
    async () => {
      const file = JSON.stringify([{ ...generatedProduct(LAST_ID + 1), title: `${added} Lantern` }]);
      const post = await fetch(`${bases[0]}/api/admin/products/import`, { method: "POST", headers, body: file });
      if (post.status !== 200) throw new Error(`the import answered ${post.status}: ${await post.text()}`);
    },
    added,
    LAST_ID + 1,
    bases,
  );
  return { edit, import: imported };
}

/** The middle value: one slow or fast round of a shared machine does not decide. */
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Alternating rounds of `address` on the baseline shop and on `shop`, each round's req/s ratio taken
 * from the two runs side by side (a busy moment of the machine hits both): the middle ratio, every
 * round's, and each shop's middle CPU time per request.
 */
async function throughput(shop: RunningServer, baseline: RunningServer, address: string) {
  const run = async (server: RunningServer, duration: number) => {
    const before = cpuMicros(server.process.pid!);
    const measured = await measure(`${server.url}${address}`, "", duration, { connections: PAGE_CONNECTIONS });
    return { ...measured, cpu: (cpuMicros(server.process.pid!) - before) / measured.requests };
  };
  await run(baseline, warmUpSeconds);
  await run(shop, warmUpSeconds);
  const rounds: Array<{ ours: Measured & { cpu: number }; theirs: Measured & { cpu: number } }> = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push({ theirs: await run(baseline, ROUND_SECONDS), ours: await run(shop, ROUND_SECONDS) });
  const ratios = rounds.map(({ ours, theirs }) => ours.rps / theirs.rps);
  return {
    ratio: middle(ratios),
    rounds: ratios.map((ratio) => ratio.toFixed(2)).join(", "),
    cpu: middle(rounds.map(({ ours }) => ours.cpu)),
    baselineCpu: middle(rounds.map(({ theirs }) => theirs.cpu)),
    errors: rounds.reduce((sum, { ours, theirs }) => sum + ours.errors + theirs.errors, 0),
  };
}

/** Every figure on one engine's store, which `file` (100,000 generated products) is imported into. */
async function onEngine(store: Store, file: string): Promise<Figures> {
  const figures: Figures = new Map();
  let errors = 0;
  const counted = (measured: Measured) => ((errors += measured.errors), measured);
  const imported = await importFile(file, store.env(0));
  figures.set("import", { value: imported.ms, note: imported.said.split("\n").at(-1) });
  figures.set("importMemory", { value: imported.peakMb });

  const first = await startTimed(store.env(0));
  const servers = [first.server];
  try {
    const base = first.server.url;
    const cookie = await adminCookie(base, store.env(0).DATA_DIR, ADMIN, ORIGIN);
    const home = await fetch(`${base}/`, { headers: { "accept-encoding": "identity" } });
    figures.set("home", { value: (await home.arrayBuffer()).byteLength / 1024 });
    const searches = [await firstSearch(base)];
    for (const [key, address] of [["suggestions", suggestions], ["results", resultsPage]] as const) {
      const next = inTurn(address, key === "results" ? Math.floor(QUERIES.length / 2) : 0);
      await measure(base, "", warmUpSeconds, { connections: CONNECTIONS, next });
      const measured = counted(await measure(base, "", seconds, { connections: CONNECTIONS, next }));
      figures.set(key, { value: measured.p95, note: `p50 ${inMs(measured.p50)}, ${Math.round(measured.rps)} req/s` });
    }

    const starts = [first.ms];
    for (let n = 1; n < store.instances; n++) {
      const other = await startTimed(store.env(n));
      servers.push(other.server);
      starts.push(other.ms);
      searches.push(await firstSearch(other.server.url));
    }
    figures.set("start", { value: Math.max(...starts), note: starts.length > 1 ? starts.map((ms) => (ms / 1000).toFixed(1)).join(", ") : undefined });
    figures.set("firstSearch", { value: Math.max(...searches) });
    const found = await freshness(
      servers.map((server) => server.url),
      cookie,
    );
    const worst = (list: number[]) => (list.some(Number.isNaN) ? NaN : Math.max(...list));
    figures.set("foundEdit", { value: worst(found.edit), note: found.edit.length > 1 ? found.edit.map((ms) => ms.toFixed(0)).join(", ") : undefined });
    figures.set("foundImport", { value: worst(found.import), note: found.import.length > 1 ? found.import.map((ms) => ms.toFixed(0)).join(", ") : undefined });
    for (const other of servers.splice(1)) await other.stop();

    const mixed = counted(await measure(base, "", MIXED_SECONDS, { connections: CONNECTIONS, next: mixedAddresses() }));
    figures.set("rss", { value: status(first.server.process.pid!, "VmRSS"), note: `${mixed.requests.toLocaleString("en-US")} requests` });
    figures.set("hwm", { value: status(first.server.process.pid!, "VmHWM") });

    const baseline = await startTimed(store.baseline);
    try {
      for (const [key, address] of [["ratioHome", "/"], ["ratioCategory", "/results/electronics"]] as const) {
        const compared = await throughput(first.server, baseline.server, address);
        errors += compared.errors;
        figures.set(key, { value: compared.ratio, note: `rounds ${compared.rounds}; CPU ${compared.cpu.toFixed(0)} / ${compared.baselineCpu.toFixed(0)} µs` });
      }
    } finally {
      await baseline.server.stop();
    }

    for (const [key, address] of [["adminList", "/api/admin/products?limit=25"], ["adminSearch", "/api/admin/products?q=walnut&limit=25"]] as const) {
      await measure(`${base}${address}`, cookie, warmUpSeconds, { connections: CONNECTIONS });
      figures.set(key, { value: counted(await measure(`${base}${address}`, cookie, seconds, { connections: CONNECTIONS })).p95 });
    }
    figures.set("errors", { value: errors });
    return figures;
  } finally {
    for (const server of servers) await server.stop();
  }
}

const started = performance.now();
const folder = temporary();
const file = path.join(folder, "products.json");
writeGeneratedCatalogue(file, PRODUCTS, FIRST_ID);
const outcomes: Array<{ engine: string; figures: Figures | string }> = [];
let failed = false;
/** One engine's figures, or why there are none: a failure is said in its column and fails the bench. */
async function measured(engine: string, store: Store | null) {
  if (!store) {
    outcomes.push({ engine, figures: `skipped: nothing answers at ${POSTGRES_URL.replace(/\/\/[^@/]*@/, "//")}` });
    return;
  }
  try {
    outcomes.push({ engine, figures: await onEngine(store, file) });
  } catch (error) {
    console.error(error);
    failed = true;
    outcomes.push({ engine, figures: `failed: ${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 300)}` });
  } finally {
    await store.close();
  }
}
try {
  await measured("SQLite", sqliteStore());
  await measured("PostgreSQL", await postgresStore());
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}

console.log(
  `\n${PRODUCTS.toLocaleString("en-US")} generated products on top of the ${SEEDED.length} seeded; ${QUERIES.length.toLocaleString("en-US")} search queries in turn; ` +
    `${seconds} s per search and back-office address after ${warmUpSeconds} s of warm-up; cached pages with ${PAGE_CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s alternating the shops.`,
);
const rows = printFigures(outcomes);
console.log(`\n(${Math.round((performance.now() - started) / 1000)} s, ${os.cpus().length} cores, Node ${process.version})`);
await reportRows(rows);
process.exit(failed || rows.some((row) => row.met === false) ? 1 : 0);
