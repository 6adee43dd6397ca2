// The fault run: the shop under bad input, slow clients and failing dependencies, on the production
// build. bench/faults.ts runs it in full; server/faults.db.test.ts runs its short version.
//  (a) a bounded fuzz of every /api endpoint, signed out and signed in;
//  (b) 200 slow clients sending their headers a byte at a time while normal requests are timed;
//  (c) the remote catalogue failing (hang, 500, garbage) while pages are requested;
//  (d) the database going away and coming back while requests run (PostgreSQL, through a TCP
//      relay that is cut and restored, so the real server is never touched).
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type RunningServer, startServer } from "./server-process.ts";

export interface FaultRow {
  part: string;
  tried: number;
  ok: number;
  client: number;
  server: number;
  /** 5xx that the situation allows (503 while the database is away). */
  allowed: number;
  note: string;
}

const ORIGIN = "http://faults.test";

export async function request(base: string, path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<number> {
  try {
    const response = await fetch(`${base}${path}`, { ...init, redirect: "manual", signal: AbortSignal.timeout(init.timeoutMs ?? 10_000) });
    // A live stream never ends by itself: its status is the answer.
    if (response.headers.get("content-type")?.startsWith("text/event-stream")) await response.body?.cancel();
    else await response.arrayBuffer();
    return response.status;
  } catch {
    return 0; // no answer at all (timeout, reset): counted as a server failure
  }
}

function tally(part: string, statuses: number[], allowed: (status: number) => boolean = () => false, note = ""): FaultRow {
  const server = statuses.filter((s) => s >= 500 || s === 0);
  return {
    part,
    tried: statuses.length,
    ok: statuses.filter((s) => s > 0 && s < 400).length,
    client: statuses.filter((s) => s >= 400 && s < 500).length,
    server: server.filter((s) => !allowed(s)).length,
    allowed: server.filter(allowed).length,
    note,
  };
}

async function signedIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email: `faults.${Date.now()}@example.com`, password: "correct horse", name: "faults" }),
  });
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** (a) Every /api endpoint with bodies, queries, headers and paths nobody should send. */
export async function fuzz(base: string, short: boolean): Promise<FaultRow> {
  const cookie = await signedIn(base);
  const huge = "x".repeat(short ? 70_000 : 2_000_000);
  const nested = `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`;
  const bodies: Array<[string, string]> = [
    ["application/json", "{oops"],
    ["application/json", "null"],
    ["application/json", "[]"],
    ["application/json", '"a string"'],
    ["application/json", JSON.stringify({ items: "all", total: "lots" })],
    ["application/json", JSON.stringify({ items: [{ id: ["1"], amount: { n: 1 } }], total: [] })],
    ["application/json", JSON.stringify({ items: [{ id: 1e308, amount: -0 }], total: 1e308 })],
    ["application/json", JSON.stringify({ clientSecret: { $ne: "" }, card: [] })],
    ["application/json", JSON.stringify({ clientSecret: "pi_\u0000_secret_x", card: { number: "\u0000", expMonth: 1.5, expYear: "x" } })],
    ["application/json", JSON.stringify({ paymentIntentId: "' or 1=1 --" })],
    ["application/json", JSON.stringify({ email: ["a@b.c"], password: { a: 1 }, name: null })],
    ["application/json", JSON.stringify({ email: "a@b.c", password: huge })],
    ["application/json", nested],
    ["application/json", JSON.stringify({ pad: huge })],
    ["text/plain", "hello"],
    ["application/x-www-form-urlencoded", "email=a%40b.c&password=x"],
    ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--"],
    ["application/xml", "<a/>"],
  ];
  const posts = ["/api/payment/create", "/api/payment/confirm", "/api/payment/complete", "/api/payment/webhook", "/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/sign-out", "/api/health", "/api/orders"];
  const gets = [
    "/api/health",
    "/api/catalogue/products?limit=-1&sort=sideways",
    "/api/catalogue/products?limit=1e999",
    `/api/catalogue/products?${"a=1&".repeat(short ? 500 : 5_000)}`,
    "/api/catalogue/products/%00",
    "/api/catalogue/products/%E2%80%AE1",
    "/api/catalogue/products/99999999999999999999",
    "/api/catalogue/products/category/%F0%9F%92%A9",
    "/api/catalogue/products/category/%00%00",
    "/api/catalogue/products/category/%",
    "/api/search?q=%00&limit=abc",
    `/api/search?q=${"%F0%9F%92%A9".repeat(300)}`,
    "/api/search?q[]=a&q[]=b&limit=0",
    "/api/orders?limit=%00&before=%00",
    "/api/orders?before=9999999999999999.pi_x",
    "/api/orders/%00",
    "/api/orders/stream?since=-1",
    "/api/auth/get-session",
    "/api/auth/%2e%2e/%2e%2e/etc/passwd",
    "/api/nothing/%ZZ",
  ];
  const headerSets: Array<Record<string, string>> = [
    { origin: ORIGIN },
    { origin: ORIGIN, cookie },
    { origin: ORIGIN, cookie: `${cookie}; ${cookie}` },
    { origin: ORIGIN, cookie: "storefront.session_token=%00%FF" },
    { origin: "null" },
    { origin: ORIGIN, "x-forwarded-for": "not-an-ip, 300.1.1.1", "accept-encoding": "br;q=2, *;q=nonsense" },
  ];
  const statuses: number[] = [];
  const failures: string[] = [];
  const record = (status: number, what: string) => {
    statuses.push(status);
    if (status >= 500 || status === 0) failures.push(`${status} ${what}`.slice(0, 160));
  };
  for (const headers of headerSets) {
    for (const path of gets) record(await request(base, path, { headers, timeoutMs: 3_000 }), `GET ${path}`);
    for (const path of posts) {
      for (const [type, body] of short ? bodies.slice(0, 12) : bodies) {
        // A body over the limit is refused before it is read, and the connection closed: sent by hand,
        // so the 413 is read even though the server stops listening half-way.
        const status =
          body.length > 60_000
            ? await rawStatus(base, rawPost(path, { ...headers, "content-type": type }, body))
            : await request(base, path, { method: "POST", headers: { ...headers, "content-type": type }, body, timeoutMs: 3_000 });
        record(status, `POST ${path} ${type} ${body.slice(0, 60)} ${JSON.stringify(headers).slice(0, 60)}`);
      }
    }
  }
  // Methods nobody uses, and duplicated or malformed headers at the socket level.
  for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) record(await request(base, "/api/payment/create", { method, headers: { origin: ORIGIN, cookie } }), method);
  for (const raw of [
    `GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`,
    `POST /api/payment/create HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}`,
    `POST /api/payment/create HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
    `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Bad\u0001Header: 1\r\n\r\n`,
    `GET /%00%00 HTTP/1.1\r\nHost: a\r\n\r\n`,
  ]) {
    record(await rawStatus(base, raw), JSON.stringify(raw.slice(0, 60)));
  }
  // The server still answers normally afterwards.
  record(await request(base, "/api/health"), "GET /api/health afterwards");
  return tally("(a) fuzz of every /api endpoint, signed out and in", statuses, undefined, failures.join("; "));
}

function rawPost(path: string, headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ ...headers, host: "faults", "content-length": String(Buffer.byteLength(body)), connection: "close" }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** The status line's code of a hand-written request (400s from node:http's parser count as 4xx). */
async function rawStatus(base: string, raw: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(raw));
    let text = "";
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on("error", () => {});
  });
}

/** (b) Slow clients: connections that send their headers a byte a second, while normal requests are timed. */
export async function slowClients(base: string, short: boolean): Promise<FaultRow & { p99: number }> {
  const { hostname, port } = new URL(base);
  const count = short ? 50 : 200;
  const seconds = short ? 3 : 10;
  const sockets: net.Socket[] = [];
  const line = "GET /api/health HTTP/1.1\r\nHost: slow\r\nX-Slow: " + "a".repeat(100);
  for (let i = 0; i < count; i++) {
    const socket = net.connect(Number(port), hostname);
    socket.on("error", () => {});
    sockets.push(socket);
  }
  let sent = 0;
  const dribble = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(line[sent % line.length]!);
    sent++;
  }, 1_000);
  const times: number[] = [];
  const statuses: number[] = [];
  const end = Date.now() + seconds * 1_000;
  try {
    while (Date.now() < end) {
      const started = performance.now();
      statuses.push(await request(base, "/api/catalogue/products?limit=5", { timeoutMs: 2_000 }));
      times.push(performance.now() - started);
    }
  } finally {
    clearInterval(dribble);
    for (const socket of sockets) socket.destroy();
  }
  times.sort((a, b) => a - b);
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Infinity;
  return { ...tally(`(b) normal requests beside ${count} slow clients`, statuses, undefined, `p99 ${p99.toFixed(1)} ms (target < 100 ms)`), p99 };
}

/** A FakeStore-shaped host whose answers the script switches: ok, hang, 500 or garbage. */
async function flakyCatalogue() {
  const products = JSON.parse(fs.readFileSync(new URL("../../catalogue/products.json", import.meta.url), "utf8")) as Array<{ image: string }>;
  const body = JSON.stringify(products.map((p) => ({ ...p, image: `http://127.0.0.1:9/${p.image}` })));
  const state = { mode: "ok" as "ok" | "hang" | "error" | "garbage" };
  const server = http.createServer((req, res) => {
    if (state.mode === "hang") return;
    if (state.mode === "error") return res.writeHead(500).end("boom");
    if (state.mode === "garbage") return res.writeHead(200, { "content-type": "application/json" }).end("<html>");
    res.writeHead(200, { "content-type": "application/json" }).end(req.url === "/products" ? body : "[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    state,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** (c) Pages while the remote catalogue hangs, errs and talks nonsense. */
export async function catalogueFailing(short: boolean): Promise<FaultRow> {
  const host = await flakyCatalogue();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-faults-catalogue-"));
  const server = await startServer({ DATA_DIR: dataDir, CATALOGUE_URL: host.url, CATALOGUE_CACHE_SECONDS: "0", CATALOGUE_TIMEOUT_MS: "500" });
  const statuses: number[] = [];
  try {
    const pages = ["/", "/results/jewelery", "/products/3", "/products/9999", "/search?q=ring", "/api/catalogue/products", "/api/health"];
    for (const mode of ["ok", "hang", "error", "garbage", "ok"] as const) {
      host.state.mode = mode;
      for (let round = 0; round < (short ? 2 : 10); round++) for (const page of pages) statuses.push(await request(server.url, page, { timeoutMs: 5_000 }));
    }
  } finally {
    await server.stop();
    host.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return tally("(c) pages while the catalogue hangs, errs and answers garbage", statuses, undefined, "served from the last good copy");
}

/** A TCP relay to PostgreSQL that can drop every connection and refuse new ones for a while. */
export async function relay(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    close() {
      this.cut();
      server.close();
    },
  };
}

/** (d) The database goes away and comes back while requests run: health turns 503 and back, nothing hangs. */
export async function databaseAway(databaseUrl: string, short: boolean): Promise<FaultRow & { healthWent: string; writesMatch: boolean }> {
  const target = new URL(databaseUrl);
  const proxy = await relay({ host: target.hostname, port: Number(target.port || 5432) });
  // A schema of its own, so the run leaves nothing behind in the database.
  const schema = `faults_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const relayed = new URL(databaseUrl);
  relayed.hostname = "127.0.0.1";
  relayed.port = String(proxy.port);
  relayed.searchParams.set("options", `-c search_path=${schema}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-faults-db-"));
  let server: RunningServer | null = null;
  const statuses: number[] = [];
  const health: number[] = [];
  let created = 0;
  let stored = -1;
  try {
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: relayed.href, PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: "100000" });
    const cookie = await signedIn(server.url);
    const load = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        for (const [path, init] of [
          ["/", {}],
          ["/orders", { headers: { cookie } }],
          ["/api/orders", { headers: { cookie } }],
          ["/api/payment/create", { method: "POST", headers: { cookie, origin: ORIGIN, "content-type": "application/json" }, body: JSON.stringify({ items: [{ id: 1, amount: 1 }], total: 8950 }) }],
        ] as const) {
          const status = await request(server!.url, path, { ...init, timeoutMs: 8_000 });
          statuses.push(status);
          if (path === "/api/payment/create" && status === 200) created++;
        }
        health.push(await request(server!.url, "/api/health", { timeoutMs: 8_000 }));
      }
    };
    await load(short ? 1_000 : 3_000);
    proxy.cut();
    await load(short ? 3_000 : 8_000);
    proxy.restore();
    await load(short ? 3_000 : 8_000);
    // Nothing written twice, nothing written unacknowledged: one payment intent per 200 answered.
    stored = Number((await admin.query(`select count(*) as n from ${schema}.payments`)).rows[0].n);
  } finally {
    await server?.stop();
    proxy.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
  // Health's answers in order, run-length encoded: "200 503 200" is the shape we want.
  const shape = health.filter((s, i) => i === 0 || s !== health[i - 1]).join(" → ");
  const books = stored === created ? `${stored} payments for ${created} acknowledged` : `MISMATCH: ${stored} payments for ${created} acknowledged`;
  return {
    ...tally("(d) requests while PostgreSQL goes away and comes back", [...statuses, ...health], (s) => s === 503, `health: ${shape}; ${books}`),
    healthWent: shape,
    writesMatch: stored === created,
  };
}

export function table(rows: FaultRow[]): string {
  const lines = ["| part | tried | 2xx/3xx | 4xx | unexpected 5xx / no answer | 503 while the database is away | |", "|---|---|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.part} | ${r.tried} | ${r.ok} | ${r.client} | ${r.server} | ${r.allowed} | ${r.note} |`);
  return lines.join("\n");
}

