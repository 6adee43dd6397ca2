import type { AsyncLocalStorage } from "node:async_hooks";
import type { HttpBindings } from "@hono/node-server";
import { getCurrentAuthContextAsyncLocalStorage, getRequestStateAsyncLocalStorage } from "@better-auth/core/context";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AppDatabase } from "../db/database.ts";
import { sessionCacheExpiry } from "./session-cache.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** What node:http would hand the app for a request from `ip`. */
const fromClient = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } }) as unknown as HttpBindings;

const sessionCookie = (response: Response) =>
  response.headers.getSetCookie().find((c) => /^(__Secure-)?storefront\.session_token=/.test(c)) ?? "";
const cookiePair = (setCookie: string) => setCookie.split(";")[0]!;

async function userCount(database: AppDatabase): Promise<number> {
  const row = await database.db
    .selectFrom("user" as never)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(testEngines())("accounts on %s", (engine) => {
  const cleanup = cleanupAfterEach();
  afterEach(() => {
    vi.useRealTimers();
  });

  async function setup(env: Record<string, string> = {}, options: { ssr?: boolean } = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app } = await testApp({ database, env, ssr: options.ssr ? await builtPages() : undefined });
    return { app, database };
  }

  async function register(app: App, email = "ada@example.com", password = "correct horse") {
    const response = await app.request("/api/auth/sign-up/email", jsonPost({ email, password, name: email }), fromClient("10.0.0.1"));
    expect(response.status).toBe(200);
    return cookiePair(sessionCookie(response));
  }

  /** Every cookie a sign-up sets (session token and session cache), as a browser sends them back. */
  async function browserCookies(app: App) {
    const signedUp = await app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }));
    return signedUp.headers.getSetCookie().map(cookiePair).join("; ");
  }

  const session = async (app: App, cookie: string) =>
    (await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user?: { email: string } } | null;

  it("leaves better-auth's async context storages disabled once its calls have finished (no promise hooks for every request)", async () => {
    const { app } = await setup();
    const storages: AsyncLocalStorage<unknown>[] = [await getCurrentAuthContextAsyncLocalStorage(), await getRequestStateAsyncLocalStorage()];
    const cookie = await register(app);
    expect((await session(app, cookie))?.user?.email).toBe("ada@example.com");
    // Entered here, a storage answers its store until it is disabled (Node's AsyncLocalStorage API).
    for (const storage of storages) {
      await storage.run(new WeakMap(), async () => {
        expect(storage.getStore()).toBeDefined();
        await app.request("/api/auth/get-session", { headers: { cookie } });
        expect(storage.getStore()).toBeUndefined();
      });
    }
  });

  it("sets an HttpOnly, SameSite=Lax session cookie, not Secure over http", async () => {
    const { app } = await setup();
    const response = await app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }));
    const cookie = sessionCookie(response);
    expect(cookie).toMatch(/^storefront\.session_token=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("Secure");
  });

  it("makes the session cookie Secure when PUBLIC_URL is https", async () => {
    const { app } = await setup({ PUBLIC_URL: "https://shop.example" });
    const response = await app.request(
      "/api/auth/sign-up/email",
      jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }, { origin: "https://shop.example" }),
    );
    const cookie = sessionCookie(response);
    expect(cookie).toMatch(/^__Secure-storefront\.session_token=/);
    expect(cookie).toContain("; Secure");
    expect(cookie).toContain("HttpOnly");
  });

  it("gives a new session token at every sign-in, and a signed-out session no longer works", async () => {
    const { app } = await setup();
    const registered = await register(app);
    expect((await session(app, registered))?.user?.email).toBe("ada@example.com");

    const signIn = async () =>
      cookiePair(sessionCookie(await app.request("/api/auth/sign-in/email", jsonPost({ email: "ada@example.com", password: "correct horse" }))));
    const first = await signIn();
    const second = await signIn();
    expect(new Set([registered, first, second]).size).toBe(3);

    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie: first, origin: TEST_ORIGIN } });
    expect(out.status).toBe(200);
    expect(await session(app, first)).toBeNull();
    // Signing out ends that session only, not the user's others.
    expect((await session(app, second))?.user?.email).toBe("ada@example.com");
  });

  it("refuses state-changing requests from another origin, on better-auth's routes and on ours", async () => {
    const { app, database } = await setup();
    const evil = { origin: "https://evil.example" };
    const signUp = await app.request("/api/auth/sign-up/email", jsonPost({ email: "eve@example.com", password: "correct horse", name: "eve" }, evil));
    expect(signUp.status).toBe(403);
    const signIn = await app.request("/api/auth/sign-in/email", jsonPost({ email: "eve@example.com", password: "correct horse" }, evil));
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toEqual({ error: "Requests from other sites are not allowed." });
    const ours = await app.request("/api/health", jsonPost({}, evil));
    expect(ours.status).toBe(403);
    const fetchMetadata = await app.request("/api/auth/sign-in/email", jsonPost({ email: "e@example.com", password: "x" }, { "sec-fetch-site": "cross-site" }));
    expect(fetchMetadata.status).toBe(403);
    expect(await userCount(database)).toBe(0);
  });

  it("rate-limits sign-in per client: 429 after the burst, others unaffected, forged X-Forwarded-For ignored, open again after the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { app } = await setup({ AUTH_RATE_LIMIT_MAX: "3", AUTH_RATE_LIMIT_WINDOW_SECONDS: "60" });
    await register(app);
    const attempt = (ip: string, headers: Record<string, string> = {}) =>
      app.request("/api/auth/sign-in/email", jsonPost({ email: "ada@example.com", password: "wrong password" }, headers), fromClient(ip));

    for (let i = 0; i < 3; i++) expect((await attempt("10.0.0.7")).status).toBe(401);
    const limited = await attempt("10.0.0.7");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: "Too many requests. Please try again later." });
    // A forged header does not make the same client look like another one.
    expect((await attempt("10.0.0.7", { "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
    // Another client is not locked out by someone else's burst, and can still sign in.
    expect((await attempt("10.0.0.8")).status).toBe(401);
    const good = await app.request("/api/auth/sign-in/email", jsonPost({ email: "ada@example.com", password: "correct horse" }), fromClient("10.0.0.8"));
    expect(good.status).toBe(200);

    vi.setSystemTime(Date.now() + 61_000);
    expect((await attempt("10.0.0.7")).status).toBe(401);
  });

  it("believes X-Forwarded-For only behind TRUST_PROXY, and then only the entry our proxy wrote", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { app } = await setup({ AUTH_RATE_LIMIT_MAX: "2", TRUST_PROXY: "1" });
    const proxy = "127.0.0.1";
    const attempt = (forwardedFor: string) =>
      app.request(
        "/api/auth/sign-in/email",
        jsonPost({ email: "nobody@example.com", password: "wrong password" }, { "x-forwarded-for": forwardedFor }),
        fromClient(proxy),
      );
    expect((await attempt("198.51.100.1")).status).toBe(401);
    expect((await attempt("198.51.100.1")).status).toBe(401);
    expect((await attempt("198.51.100.1")).status).toBe(429);
    // The client prepends a made-up address; nginx appends the real one, which is what counts.
    expect((await attempt("203.0.113.50, 198.51.100.1")).status).toBe(429);
    // A different real client behind the same proxy has its own allowance.
    expect((await attempt("198.51.100.2")).status).toBe(401);
  });

  it.each([
    ["no body", undefined],
    ["malformed JSON", "{oops"],
    ["missing fields", {}],
    ["missing password", { email: "a@example.com" }],
    ["a number for the email", { email: 42, password: "correct horse", name: "x" }],
    ["an array for the email", { email: ["a@example.com"], password: "correct horse", name: "x" }],
    ["an object for the password", { email: "a@example.com", password: { $ne: "" }, name: "x" }],
    ["an invalid email", { email: "not-an-email", password: "correct horse", name: "x" }],
    ["a short password", { email: "a@example.com", password: "short", name: "x" }],
    ["a 200-character password", { email: "a@example.com", password: "p".repeat(200), name: "x" }],
    ["a JSON array body", [1, 2, 3]],
    ["a 10 MB body", { email: "a@example.com", password: "correct horse", name: "x".repeat(10 * 1024 * 1024) }],
  ])("answers bad input (%s) to sign-up and sign-in with a 4xx and creates nothing", async (_label, body) => {
    const { app, database } = await setup();
    for (const path of ["/api/auth/sign-up/email", "/api/auth/sign-in/email"]) {
      const init = body === undefined ? { method: "POST", headers: { origin: TEST_ORIGIN } } : jsonPost(body);
      const response = await app.request(path, init);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(sessionCookie(response), path).toBe("");
    }
    expect(await userCount(database)).toBe(0);
  });

  it("answers sign-out and get-session without a session calmly", async () => {
    const { app } = await setup();
    const session = await app.request("/api/auth/get-session");
    expect(session.status).toBe(200);
    expect(await session.json()).toBeNull();
    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { origin: TEST_ORIGIN } });
    expect(out.status).toBeLessThan(500);
  });

  it("knows a signed-in request from the session cache cookie for a minute, then from the database again", async () => {
    const { app, database } = await setup();
    vi.useFakeTimers({ toFake: ["Date"] });
    const cookies = await browserCookies(app);
    expect(cookies).toMatch(/storefront\.session_data=/);
    const orders = () => app.request("/api/orders", { headers: { cookie: cookies } });
    // The session is revoked elsewhere (another device signs out): the cache still vouches for it...
    await database.db.deleteFrom("session" as never).execute();
    expect((await orders()).status).toBe(200);
    // ...for at most a minute; then the database says no, and the dead session's cookies are cleared.
    vi.setSystemTime(Date.now() + 61_000);
    const after = await orders();
    expect(after.status).toBe(401);
    expect(after.headers.getSetCookie().some((c) => /^storefront\.session_token=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
  });

  it("checks a session cache cookie's signature once: repeats of the same cookies skip it, altered ones do not", async () => {
    const { app } = await setup();
    const cookies = await browserCookies(app);
    const orders = (cookie: string) => app.request("/api/orders", { headers: { cookie } });
    expect((await orders(cookies)).status).toBe(200);

    const importKey = vi.spyOn(globalThis.crypto.subtle, "importKey");
    try {
      expect((await orders(cookies)).status).toBe(200);
      expect((await orders(cookies)).status).toBe(200);
      expect(importKey).not.toHaveBeenCalled();
      // Another signature on the same session data is checked, and refused.
      const forged = cookies.replace(/(storefront\.session_data=)([^;]+)/, (_, name: string, value: string) => {
        const payload = JSON.parse(Buffer.from(value, "base64url").toString()) as { signature: string };
        return name + Buffer.from(JSON.stringify({ ...payload, signature: "A".repeat(payload.signature.length) })).toString("base64url");
      });
      expect(forged).not.toBe(cookies);
      await orders(forged);
      expect(importKey).toHaveBeenCalled();
    } finally {
      importKey.mockRestore();
    }
  });

  it("reads when a session cache cookie stops being accepted", () => {
    const encode = (payload: object) => Buffer.from(JSON.stringify(payload)).toString("base64url");
    const session = (expiresAt: string) => ({ session: { expiresAt }, user: {} });
    const cookie = (value: string) => `other=1; storefront.session_token=abc; storefront.session_data=${value}`;
    expect(sessionCacheExpiry(cookie(encode({ session: session("2030-01-01T00:00:00.000Z"), expiresAt: 1_000 })))).toBe(1_000);
    expect(sessionCacheExpiry(cookie(encode({ session: session("1970-01-01T00:00:02.000Z"), expiresAt: 5_000 })))).toBe(2_000);
    expect(sessionCacheExpiry(`__Secure-storefront.session_data=${encode({ session: session("2030-01-01T00:00:00.000Z"), expiresAt: 7 })}`)).toBe(7);
    expect(sessionCacheExpiry(cookie("not-json"))).toBeNull();
    expect(sessionCacheExpiry(cookie(encode({ session: session("garbage"), expiresAt: 1 })))).toBeNull();
    expect(sessionCacheExpiry("storefront.session_token=abc")).toBeNull();
  });

  it("accepts sessions made by another app instance on the same database (shared secret)", async () => {
    const { app, database } = await setup();
    const cookie = await register(app);
    const { app: second } = await testApp({ database });
    expect((await session(second, cookie))?.user?.email).toBe("ada@example.com");
  });

  it("takes turns with our own transactions: sign-ups during a checkout's transaction both succeed", async () => {
    const { app, database } = await setup();
    // A transaction of ours that awaits between its statements, as a payment's fulfilment does;
    // on SQLite both share one connection, so better-auth must wait for it rather than nest in it.
    // The transaction holds on until both sign-ups have started, then writes and commits.
    let started = () => {};
    const signUpsStarted = new Promise<void>((resolve) => (started = resolve));
    const ours = database.db.transaction().execute(async (trx) => {
      await trx.selectFrom("payments").select("id").execute();
      await signUpsStarted;
      await trx.insertInto("settings").values({ key: "checkout-marker", value: "ours" }).execute();
      return "committed";
    });
    const signUps = ["grace@example.com", "alan@example.com"].map((email) =>
      app.request("/api/auth/sign-up/email", jsonPost({ email, password: "correct horse", name: email }), fromClient("10.0.0.2")),
    );
    started();
    await expect(ours).resolves.toBe("committed");
    // Our write survived: better-auth's work did not nest inside our transaction or roll it back.
    expect(await database.db.selectFrom("settings").select("value").where("key", "=", "checkout-marker").executeTakeFirst()).toEqual({ value: "ours" });
    expect((await Promise.all(signUps)).map((r) => r.status)).toEqual([200, 200]);
    expect(await userCount(database)).toBe(2);
  });
});
