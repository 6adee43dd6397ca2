import { describe, expect, it } from "vitest";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, signUp, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { priceCents } from "../../test/support/checkout.ts";
import { builtPages } from "../../test/support/pages.ts";

// JSON endpoints answer 415 to a body that is not application/json, and every 429 carries the
// standard Retry-After header (better-auth's own say only X-Retry-After).

describe.each(testEngines())("strict JSON and Retry-After on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app } = await testApp({ database, env, ssr: await builtPages() });
    return app;
  }

  it.each(["/api/payment/create", "/api/payment/confirm", "/api/payment/complete", "/api/auth/sign-in/email"])(
    "answers 415 to a JSON text sent to %s as text/plain, or with no type",
    async (path) => {
      const app = await setup();
      const cookie = await signUp(app, "ada@example.com");
      const body = JSON.stringify({ items: [{ id: 3, amount: 1 }], total: priceCents(3), email: "ada@example.com", password: "correct horse" });
      for (const type of ["text/plain", "text/plain; charset=utf-8", "application/x-json", null]) {
        const headers: Record<string, string> = { origin: TEST_ORIGIN, cookie, ...(type ? { "content-type": type } : {}) };
        const response = await app.request(path, { method: "POST", headers, body });
        expect([type, response.status]).toEqual([type, 415]);
      }
      // The same body as application/json is read.
      expect((await app.request(path, jsonPost(JSON.parse(body), { cookie }))).status).not.toBe(415);
    },
  );

  it("gives better-auth's 429 the standard Retry-After", async () => {
    const app = await setup({ AUTH_RATE_LIMIT_MAX: "2", AUTH_RATE_LIMIT_WINDOW_SECONDS: "60" });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await app.request("/api/auth/sign-in/email", jsonPost({ email: "ada@example.com", password: "wrong password" }));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("gives the sign-in page's 429 a Retry-After too", async () => {
    const app = await setup({ AUTH_RATE_LIMIT_MAX: "1", AUTH_RATE_LIMIT_WINDOW_SECONDS: "30" });
    const form = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN },
      body: new URLSearchParams({ intent: "signin", email: "ada@example.com", password: "wrong password" }).toString(),
    };
    await app.request(`${TEST_ORIGIN}/auth`, form);
    const refused = await app.request(`${TEST_ORIGIN}/auth`, form);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
