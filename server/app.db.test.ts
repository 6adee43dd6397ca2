import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import { EmbeddedCatalogue } from "./catalogue/embedded.ts";
import { freshDatabase, testEngines } from "./db/testing.ts";
import { createLogger } from "./log.ts";

const catalogue = new EmbeddedCatalogue();
const log = createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" });

describe.each(testEngines())("the API on %s", (engine) => {
  let drop: () => Promise<void> = async () => {};
  afterEach(() => drop());

  async function app() {
    const database = await freshDatabase(engine);
    drop = database.drop;
    return { database, app: createApp({ config: { NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" }, log, database, catalogue }) };
  }

  it("answers /api/health 200 with the database reachable", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: engine });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers /api/health 503 when the database is gone", async () => {
    const { app: server, database } = await app();
    await database.close();
    const response = await server.request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", database: engine });
  });

  it("puts the security headers on API responses", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/health");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("answers 400 in JSON to a malformed body, never 500", async () => {
    const { app: server } = await app();
    for (const path of ["/api/health", "/api/catalogue/products", "/api/anything"]) {
      const response = await server.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
      expect(response.status, path).toBe(400);
      expect(await response.json()).toEqual({ error: "The request body is not valid JSON." });
    }
  });

  it("compresses what it sends when the client accepts it", async () => {
    const { app: server } = await app();
    const response = await server.request("/api/catalogue/products", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});
