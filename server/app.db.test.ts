import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, testEngines } from "../test/support/database.ts";
import { jsonPost, signUp, testApp } from "../test/support/app.ts";

describe.each(testEngines())("the API on %s", (engine) => {
  let drop: () => Promise<void> = async () => {};
  afterEach(() => drop());

  async function app() {
    const database = await freshDatabase(engine);
    drop = database.drop;
    return { database, app: (await testApp({ database })).app };
  }

  it("answers /api/health 200 with the database reachable", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: engine, catalogue: { source: "embedded", state: "fresh" } });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers /api/health 503 when the database is gone", async () => {
    const { app: server, database } = await app();
    await database.close();
    const response = await server.request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", database: engine, catalogue: { source: "embedded", state: "fresh" } });
  });

  it("sends small JSON answers as they are, with their length, and gzips large ones", async () => {
    const { app: server } = await app();
    const gzip = { headers: { "accept-encoding": "gzip" } };
    const small = await server.request("/api/orders", gzip);
    expect(small.status).toBe(401);
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(Number(small.headers.get("content-length"))).toBe(new TextEncoder().encode(await small.text()).byteLength);
    const large = await server.request("/api/search?q=a&limit=20", gzip);
    expect(large.status).toBe(200);
    expect(large.headers.get("content-encoding")).toBe("gzip");
  });

  it("puts the security headers on API responses", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/health");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("answers a malformed body to a path without that method with a JSON 4xx, never 500", async () => {
    const { app: server } = await app();
    for (const path of ["/api/health", "/api/catalogue/products", "/api/anything"]) {
      const response = await server.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
      expect(response.status, path).toBe(path === "/api/anything" ? 404 : 405);
      expect(await response.json()).toEqual({ error: `No API endpoint POST ${path}.` });
    }
  });

  it("never puts a session's cookies on the public, cacheable catalogue API", async () => {
    const { app: server } = await app();
    const cookie = await signUp(server, "public@example.com");
    expect((await server.request("/api/auth/sign-out", jsonPost({}, { cookie }))).status).toBe(200);
    // The signed-out session's cookie still comes: elsewhere the answer clears it...
    const health = await server.request("/api/health", { headers: { cookie } });
    expect(health.headers.getSetCookie().join("; ")).toContain("session_token=;");
    // ...but an answer any cache may keep and share carries no one's cookies.
    const products = await server.request("/api/catalogue/products", { headers: { cookie } });
    expect(products.status).toBe(200);
    expect(products.headers.get("cache-control")).toBe("public, max-age=60");
    expect(products.headers.getSetCookie()).toEqual([]);
  });

  it("answers 405 with Allow for a path it has asked with another method, and 404 for a path it has not, whatever the method", async () => {
    const { app: server } = await app();
    const cases: Array<[string, string, number, string | null]> = [
      ["GET", "/api/payment/create", 405, "POST"],
      ["DELETE", "/api/search", 405, "GET, HEAD"],
      ["PUT", "/api/catalogue/products/3", 405, "GET, HEAD"],
      ["DELETE", "/api/nothing-here", 404, null],
      ["PATCH", "/api/payment/nothing", 404, null],
      ["POST", "/api/search/extra", 404, null],
    ];
    for (const [method, path, status, allow] of cases) {
      const response = await server.request(path, { method });
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(response.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(await response.json()).toEqual({ error: `No API endpoint ${method} ${path}.` });
    }
  });

  it("compresses what it sends when the client accepts it", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/catalogue/products", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});
