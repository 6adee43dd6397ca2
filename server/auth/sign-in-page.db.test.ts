import { describe, expect, it } from "vitest";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";
import { pagesAppWithAda } from "../../test/support/pages-app.ts";

// The sign-in page (/auth) as a browser posts it: redirects, cookies, messages, origins.

const sessionCookie = (response: Response) =>
  response.headers.getSetCookie().find((c) => /^(__Secure-)?storefront\.session_token=/.test(c)) ?? "";
const cookiePair = (setCookie: string) => setCookie.split(";")[0]!;

describe.each(testEngines())("the sign-in page on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => pagesAppWithAda(engine, cleanup);

  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN },
    body: new URLSearchParams(fields).toString(),
  });

  it.each(["//evil.example", "https://evil.example", "/\\evil.example", "\\\\evil.example", "http:evil.example", "//evil.example/%2e%2e"])(
    "lands on / after signing in with redirectTo=%s",
    async (target) => {
      const app = await setup();
      const response = await app.request(
        `${TEST_ORIGIN}/auth?redirectTo=${encodeURIComponent(target)}`,
        form({ intent: "signin", email: "ada@example.com", password: "correct horse", redirectTo: target }),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
    },
  );

  it("returns to the protected page it came from, with the session cookie, and the server HTML greets the user", async () => {
    const app = await setup();
    const anonymous = await app.request("/orders");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/auth?redirectTo=%2Forders");
    const response = await app.request(
      `${TEST_ORIGIN}/auth?redirectTo=%2Forders`,
      form({ intent: "signin", email: "ada@example.com", password: "correct horse", redirectTo: "/orders" }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/orders");
    const cookie = cookiePair(sessionCookie(response));
    const orders = await app.request("/orders", { headers: { cookie } });
    expect(orders.status).toBe(200);
    const html = await orders.text();
    expect(html).toContain("Hello <!-- -->ada");
    expect(html).toContain("Sign Out");
    expect(html).not.toContain("Hello, Sign In");
    // Client-side navigations fetch the same data through React Router's .data requests.
    const data = await app.request("/orders.data", { headers: { cookie } });
    expect(await data.text()).toContain('"ada@example.com"');
  });

  it("shows the provider's message with the status it gave when the password is wrong", async () => {
    const app = await setup();
    const response = await app.request(`${TEST_ORIGIN}/auth`, form({ intent: "signin", email: "ada@example.com", password: "wrong password" }));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/role="alert">Invalid email or password</);
  });

  it("signing in as someone else on /auth replaces the session: the old one no longer works", async () => {
    const app = await setup();
    await app.request("/api/auth/sign-up/email", jsonPost({ email: "bea@example.com", password: "correct horse", name: "bea" }));
    const signInAs = async (email: string, cookie?: string) => {
      const response = await app.request(`${TEST_ORIGIN}/auth`, {
        ...form({ intent: "signin", email, password: "correct horse" }),
        headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
      });
      expect(response.status).toBe(302);
      return cookiePair(sessionCookie(response));
    };
    const ada = await signInAs("ada@example.com");
    const bea = await signInAs("bea@example.com", ada);
    const who = async (cookie: string) =>
      ((await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user?: { email: string } } | null)?.user?.email;
    expect(await who(bea)).toBe("bea@example.com");
    expect(await who(ada)).toBeUndefined();
  });

  it("accepts the sign-in form behind a TLS proxy, where this process sees http and the browser https", async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app } = await testApp({ database, ssr: await builtPages(), env: { PUBLIC_URL: "https://shop.example" } });
    await app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }, { origin: "https://shop.example" }));
    const response = await app.request("http://10.0.0.5:3000/auth", {
      ...form({ intent: "signin", email: "ada@example.com", password: "correct horse" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://shop.example" },
    });
    expect(response.status).toBe(302);
    expect(sessionCookie(response)).toMatch(/^__Secure-storefront\.session_token=/);
  });

  it("refuses a sign-in form posted from another site", async () => {
    const app = await setup();
    const response = await app.request(`${TEST_ORIGIN}/auth`, {
      ...form({ intent: "signin", email: "ada@example.com", password: "correct horse" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    expect(sessionCookie(response)).toBe("");
  });
});
