import net from "node:net";
import { describe, expect, it } from "vitest";
import { sampleValue, scrape } from "../../test/support/prometheus-text.ts";
import type { RunningServer } from "../../test/support/server-process.ts";
import { serverPerTest } from "../../test/support/server-per-test.ts";
import { eventually } from "../../test/support/poll.ts";
import { KEEP_ALIVE_TIMEOUT_MS, PROXY_KEEP_ALIVE_MAX_MS } from "../listen/timeouts.ts";

// The built server started as `npm start` starts it: its metrics listener, its health answers, and
// readiness dropping to 503 the moment SIGTERM arrives.

const startWithDataDir = serverPerTest("storefront-ops-");
const start = async (env: Record<string, string>) => (await startWithDataDir(env)).server;

const metricsUrlOf = (running: RunningServer) => String(running.logs.find((r) => r.msg === "metrics listening")?.url);

describe("the started server", () => {
  it("serves /metrics on METRICS_PORT only, with the request counters and Node's process metrics", async () => {
    const running = await start({ METRICS_PORT: "0" });
    const metricsUrl = metricsUrlOf(running);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await (await fetch(`${running.url}/api/catalogue/products/1`)).arrayBuffer();
    await (await fetch(`${running.url}/products/1`)).arrayBuffer();

    const { samples } = await scrape(metricsUrl);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "GET", route: "/api/catalogue/products/:id", status: "200" })).toBe(1);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "GET", route: "/products/:productId", status: "200" })).toBe(1);
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === "nodejs_eventloop_lag_seconds")).toBe(true);
    // Not on the shop's own port.
    expect((await fetch(`${running.url}/metrics`)).status).toBe(404);
  });

  it("has no metrics listener without METRICS_PORT", async () => {
    const running = await start({});
    expect(running.logs.some((r) => r.msg === "metrics listening")).toBe(false);
  });

  it("answers ready 503 from the moment SIGTERM arrives, keeps serving while it drains, then exits cleanly", async () => {
    const running = await start({ SHUTDOWN_DRAIN_SECONDS: "3" });
    const status = (path: string) => fetch(`${running.url}${path}`).then((r) => r.status, () => 0);
    expect([await status("/api/health/live"), await status("/api/health/ready")]).toEqual([200, 200]);

    const exited = new Promise<number | null>((resolve) => running.process.once("exit", (code) => resolve(code)));
    running.process.kill("SIGTERM");
    expect(await eventually(() => status("/api/health/ready"), (s) => s === 503)).toBe(503);
    // Draining: not ready, but alive and still serving shoppers until the load balancer has moved on.
    expect(await status("/api/health/live")).toBe(200);
    expect(await status("/api/catalogue/products/1")).toBe(200);
    expect(await exited).toBe(0);
  });

  it("says how long it keeps an idle keep-alive connection, and closes it itself", async () => {
    // How long node:http waits is its own affair, and timeouts.test.ts holds KEEP_ALIVE_TIMEOUT_MS
    // above what a proxy in front keeps (PROXY_KEEP_ALIVE_MAX_MS): here, that the running server is
    // set to it, and that the server ends an idle connection without the client doing anything.
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(PROXY_KEEP_ALIVE_MAX_MS + 1_000);
    const running = await start({});
    const socket = net.connect(Number(new URL(running.url).port), "127.0.0.1");
    let answer = "";
    const answered = new Promise<void>((resolve) =>
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString();
        if (answer.includes('"status":"ok"')) resolve();
      }),
    );
    const closedByServer = new Promise<void>((resolve) => socket.on("end", () => resolve()));
    socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain(`Keep-Alive: timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}\r\n`);
    await closedByServer;
    socket.destroy();
  });
});
