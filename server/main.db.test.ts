import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteOrSkip, withPostgresSchema } from "../test/support/database.ts";
import { builtPages } from "../test/support/pages.ts";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { postgresOrSkip } from "../test/support/checkout.ts";
import { migrations } from "./db/migrations/index.ts";

// These start the real process, as `npm start` does, against each database engine.
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  servers = [];
});

async function start(env: Record<string, string>) {
  await builtPages(); // fails with a clear message when the build is missing
  const server = await startServer(env);
  servers.push(server);
  return server;
}

async function runTwice(env: Record<string, string>, engine: string) {
  const first = await start(env);
  const health = await fetch(`${first.url}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: engine, catalogue: { source: "database", state: "fresh" } });
  expect(first.logs.find((r) => r.msg === "database migrated")?.migrations).toEqual(Object.keys(migrations));
  expect(await first.stop()).toBe(0);
  expect(first.logs.map((r) => r.msg)).toContain("stopped");

  // The second start finds the schema up to date: no migration runs.
  const second = await start(env);
  expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  expect(second.logs.some((r) => r.msg === "database migrated")).toBe(false);
  const home = await fetch(`${second.url}/`, { headers: { "accept-encoding": "gzip" } });
  expect(home.status).toBe(200);
  expect(home.headers.get("content-encoding")).toBe("gzip");
  const html = await home.text();
  expect(html).toContain("Hello, Sign In");

  // Hashed build assets are cached for good; other public files for a while.
  const script = html.match(/"(\/assets\/[^"]+\.js)"/);
  const asset = await fetch(`${second.url}${script?.[1]}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  const favicon = await fetch(`${second.url}/favicon.svg`);
  expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
  expect((await fetch(`${second.url}/assets/nope.js`)).status).toBe(404);

  // One JSON log line per request: its id, method, route pattern, status and time taken (written in batches, within 200 ms).
  const requestLine = expect.objectContaining({ msg: "request", requestId: expect.any(String), method: "GET", route: "/", status: 200, ms: expect.any(Number) });
  await expect.poll(() => second.logs, { timeout: 2_000 }).toContainEqual(requestLine);
  expect(await second.stop()).toBe(0);
}

describe("the server process", () => {
  it("starts on SQLite, migrates once, answers health, and stops cleanly; twice", async (context) => {
    sqliteOrSkip(context);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-main-"));
    await runTwice({ DATA_DIR: dataDir }, "sqlite");
    expect(fs.existsSync(path.join(dataDir, "storefront.sqlite"))).toBe(true);
    fs.rmSync(dataDir, { recursive: true });
  });

  it("starts on PostgreSQL, migrates once, answers health, and stops cleanly; twice", async (context) => {
    postgresOrSkip(context);
    await withPostgresSchema("main", (databaseUrl) => runTwice({ DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir() }, "postgres"));
  });

  it("runs two instances on one PostgreSQL that start together and accept each other's sessions", async (context) => {
    postgresOrSkip(context);
    await withPostgresSchema("pair", async (databaseUrl) => {
      const env = { DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir(), PUBLIC_URL: "http://shop.test" };
      // Both first starts race to create the tables and the auth secret.
      const [a, b] = await Promise.all([start(env), start(env)]);
      const signUp = await fetch(`${a!.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://shop.test" },
        body: JSON.stringify({ email: "pat@example.com", password: "correct horse", name: "pat" }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers.getSetCookie()[0]!.split(";")[0]!;
      const session = await fetch(`${b!.url}/api/auth/get-session`, { headers: { cookie } });
      expect(((await session.json()) as { user: { email: string } }).user.email).toBe("pat@example.com");
      const page = await (await fetch(`${b!.url}/`, { headers: { cookie } })).text();
      expect(page).toContain("Hello <!-- -->pat");
      // Stopped before the schema goes, so no instance is left using it.
      await Promise.all(servers.map((s) => s.stop()));
    });
  });

  it("finishes an in-flight request before it stops on SIGTERM", async (context) => {
    sqliteOrSkip(context);
    const net = await import("node:net");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-main-"));
    const server = await start({ DATA_DIR: dataDir });
    const { port } = new URL(server.url);
    // A request whose body is still to come: with Expect: 100-continue the server says when it has
    // taken the request (100 Continue), so the signal arrives while it is provably in flight.
    const body = JSON.stringify({ items: [], total: 0 });
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    const continued = new Promise<void>((resolve) =>
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString();
        if (answer.includes("100 Continue")) resolve();
      }),
    );
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(
      `POST /api/payment/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await continued;
    const exit = server.stop("SIGTERM");
    await expect.poll(() => server.logs.some((r) => r.msg === "shutting down: finishing in-flight requests")).toBe(true);
    socket.end(body);
    await closed;
    // It was answered (401: nobody is signed in), then the process ended cleanly.
    expect(answer).toMatch(/HTTP\/1\.1 401 /);
    expect(await exit).toBe(0);
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
  });
});
