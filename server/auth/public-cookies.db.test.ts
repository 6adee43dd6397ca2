import { describe, expect, it } from "vitest";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, testApp } from "../../test/support/app.ts";

// A public, cacheable answer never sets a cookie (a renewed session cache would be stored with it
// by any shared cache); the renewal waits for the next private answer, and an answer that does
// set a cookie is `private, no-store`.

describe.each(testEngines())("cookies on public answers on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  /** The session token alone, as a browser sends it once the minute-long session cache has expired: it renews the cache. */
  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app } = await testApp({ database });
    const signedUp = await app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }));
    const token = signedUp.headers.getSetCookie().find((c) => c.startsWith("storefront.session_token="))!.split(";")[0]!;
    return { app, token };
  }

  it.each(["/api/search?q=shirt", "/images/products/3-quilted-bomber-jacket.svg"])("answers %s public and without a cookie, to a session that needs renewing", async (path) => {
    const { app, token } = await setup();
    const response = await app.request(path, { headers: { cookie: token } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/public/);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("renews on the next private answer instead, which is private, no-store", async () => {
    const { app, token } = await setup();
    await app.request("/api/search?q=shirt", { headers: { cookie: token } });
    const orders = await app.request("/api/orders", { headers: { cookie: token } });
    expect(orders.status).toBe(200);
    expect(orders.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["storefront.session_data"]);
    expect(orders.headers.get("cache-control")).toBe("private, no-store");
    const health = await app.request("/api/health", { headers: { cookie: token } });
    expect(health.headers.getSetCookie().length).toBe(1);
    expect(health.headers.get("cache-control")).toBe("private, no-store");
  });
});
