import { describe, expect, it } from "vitest";
import { signUp, testApp } from "../../test/support/app.ts";
import { memoryLogger } from "../../test/support/logger.ts";

// One JSON line per request (pino), with the id the response carries as X-Request-Id.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function shop(env: Record<string, string> = {}) {
  const memory = memoryLogger();
  const { app, services } = await testApp({ log: memory.log, env });
  const requestLines = () => memory.records.filter((r) => r.msg === "request");
  return { app, services, records: memory.records, requestLines };
}

describe("request log", () => {
  it("writes one line per request: its id (also sent back), method, route pattern, status and duration, not the raw path", async () => {
    const { app, requestLines } = await shop();
    const response = await app.request("/api/catalogue/products/3?limit=secret-word");
    const missing = await app.request("/api/catalogue/products/999");
    expect([response.status, missing.status]).toEqual([200, 404]);

    const lines = requestLines();
    expect(lines).toHaveLength(2);
    const [first, second] = lines as [Record<string, unknown>, Record<string, unknown>];
    expect(first).toMatchObject({ level: 30, method: "GET", route: "/api/catalogue/products/:id", status: 200 });
    expect(second).toMatchObject({ route: "/api/catalogue/products/:id", status: 404 });
    expect(first.requestId).toMatch(UUID);
    expect(response.headers.get("x-request-id")).toBe(first.requestId);
    expect(first.requestId).not.toBe(second.requestId);
    expect(typeof first.ms).toBe("number");
    expect(first).not.toHaveProperty("userId");
    expect(first).not.toHaveProperty("traceId");
    expect(JSON.stringify(lines)).not.toContain("secret-word");
    expect(JSON.stringify(lines)).not.toContain("/products/3");
  });

  it("names the signed-in user by id, never by email, and never logs a password, a token or a card", async () => {
    const { app, records, requestLines } = await shop();
    const cookie = await signUp(app, "logged@example.com", "a secret password");
    const orders = await app.request("/api/orders", { headers: { cookie } });
    expect(orders.status).toBe(200);
    await app.request("/api/payment/confirm", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000", cookie },
      body: JSON.stringify({ clientSecret: "pi_x_secret_y", card: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" } }),
    });

    const line = requestLines().find((r) => r.route === "/api/orders");
    expect(line?.userId).toMatch(/\S+/);
    const everything = JSON.stringify(records);
    for (const secret of ["logged@example.com", "a secret password", cookie.split("=")[1]!, "4242424242424242", "pi_x_secret_y"]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("takes a proxy's X-Request-Id only with TRUST_PROXY set, and only a well-formed one", async () => {
    const direct = await shop();
    const spoofed = await direct.app.request("/api/health/live", { headers: { "x-request-id": "from-the-client" } });
    expect(spoofed.headers.get("x-request-id")).toMatch(UUID);

    const proxied = await shop({ TRUST_PROXY: "1" });
    const taken = await proxied.app.request("/api/health/live", { headers: { "x-request-id": "0123456789abcdef0123456789abcdef" } });
    expect(taken.headers.get("x-request-id")).toBe("0123456789abcdef0123456789abcdef");
    expect(proxied.requestLines().at(-1)?.requestId).toBe("0123456789abcdef0123456789abcdef");
    const malformed = await proxied.app.request("/api/health/live", { headers: { "x-request-id": "bad id\twith \"quotes\"" } });
    expect(malformed.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("health for load balancers", () => {
  it("answers live while the process runs, and ready until it is told to stop; /api/health stays as it was", async () => {
    const { app, services } = await shop();
    const live = await app.request("/api/health/live");
    expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    const ready = await app.request("/api/health/ready");
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
    expect(ready.headers.get("cache-control")).toBe("no-store");

    services.readiness.drain();
    const draining = await app.request("/api/health/ready");
    expect([draining.status, await draining.json()]).toEqual([503, { status: "unavailable", reason: "shutting down" }]);
    expect((await app.request("/api/health/live")).status).toBe(200);
    const health = await app.request("/api/health");
    expect([health.status, await health.json()]).toEqual([200, { status: "ok", database: "sqlite", catalogue: { source: "embedded", state: "fresh" } }]);
    expect((await app.request("/api/health/ready", { method: "POST", headers: { origin: "http://localhost:3000" } })).status).toBe(405);
  });
});
