import { describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { cleanupAfterEach, createPostgresSchema, testEngines } from "../../test/support/database.ts";
import { jsonPost, testApp, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { postgresOrSkip } from "../../test/support/checkout.ts";
import { eventually } from "../../test/support/poll.ts";

// After Sign Out, a copied pair of cookies (session token and better-auth's signed session
// cache) is refused at once, on this instance and within 1 s on every other.

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** Every cookie a sign-up sets (session token and session cache), as a browser sends them back. */
async function signedUpCookies(app: App, email: string): Promise<string> {
  const response = await app.request("/api/auth/sign-up/email", jsonPost({ email, password: "correct horse", name: email }));
  expect(response.status).toBe(200);
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  expect(cookies.map((c) => c.split("=")[0])).toEqual(["storefront.session_token", "storefront.session_data"]);
  return cookies.join("; ");
}

const ordersStatus = async (app: App, cookie: string) => (await app.request("/api/orders", { headers: { cookie } })).status;
const sessionEmail = async (app: App, cookie: string) =>
  ((await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user?: { email: string } } | null)?.user?.email;

/** Polls `probe` until it gives `expected`, for at most `withinMs`; what it last gave. */
const within = <T>(withinMs: number, expected: T, probe: () => Promise<T>): Promise<T> =>
  eventually(probe, (value) => value === expected, { timeoutMs: withinMs, everyMs: 25 });

describe.each(testEngines())("signing out on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => testAppOnFreshDatabase(engine, cleanup);

  it("refuses the copied cookies at once after the API's sign-out, though their cache is still valid", async () => {
    const { app } = await setup();
    const copied = await signedUpCookies(app, "ada@example.com");
    expect(await ordersStatus(app, copied)).toBe(200);
    expect(await ordersStatus(app, copied)).toBe(200); // now remembered as verified, too
    const out = await app.request("/api/auth/sign-out", jsonPost({}, { cookie: copied }));
    expect(out.status).toBe(200);
    expect(await ordersStatus(app, copied)).toBe(401);
    expect(await sessionEmail(app, copied)).toBeUndefined();
  });

  it("refuses them after the page's Sign Out too, while another live session keeps working", async () => {
    const { app, services } = await setup();
    const ada = await signedUpCookies(app, "ada@example.com");
    const bea = await signedUpCookies(app, "bea@example.com");
    expect(await ordersStatus(app, ada)).toBe(200);
    const out = await services.auth.signOut(new Headers({ cookie: ada }), "127.0.0.1");
    expect(out.ok).toBe(true);
    expect(await ordersStatus(app, ada)).toBe(401);
    expect(await ordersStatus(app, bea)).toBe(200);
    expect(await sessionEmail(app, bea)).toBe("bea@example.com");
  });
});

describe("signing out with two instances on one PostgreSQL", () => {
  const cleanup = cleanupAfterEach();

  async function instance(databaseUrl: string): Promise<App> {
    const database: AppDatabase = openDatabase({ engine: "postgres", url: databaseUrl, maxConnections: 4 });
    await migrateToLatest(database);
    const { app, services } = await testApp({ database });
    cleanup(() => services.close());
    return app;
  }

  it("refuses the copied cookies on the other instance within 1 s", async (context) => {
    postgresOrSkip(context);
    const schema = await createPostgresSchema("signout");
    cleanup(schema.drop);
    const first = await instance(schema.databaseUrl);
    const second = await instance(schema.databaseUrl);
    const copied = await signedUpCookies(first, "ada@example.com");
    // The second instance accepts the cookies (and remembers them as verified) before the sign-out.
    expect(await ordersStatus(second, copied)).toBe(200);
    expect(await ordersStatus(second, copied)).toBe(200);
    expect(await sessionEmail(second, copied)).toBe("ada@example.com");
    expect((await first.request("/api/auth/sign-out", jsonPost({}, { cookie: copied }))).status).toBe(200);
    expect(await within(1_000, 401, () => ordersStatus(second, copied))).toBe(401);
    expect(await sessionEmail(second, copied)).toBeUndefined();
    expect(await ordersStatus(first, copied)).toBe(401);
    // A third instance started afterwards learns the revocation from the database.
    const third = await instance(schema.databaseUrl);
    expect(await ordersStatus(third, copied)).toBe(401);
  });
});
