import { describe, expect, it } from "vitest";
import { signUpAdmin, signUpWithCookies } from "../test/support/admin.ts";
import { TEST_ORIGIN, testAppOnFreshDatabase } from "../test/support/app.ts";
import { cleanupAfterEach, testEngines } from "../test/support/database.ts";
import { memoryLogger } from "../test/support/logger.ts";
import { builtPages } from "../test/support/pages.ts";
import { apiWrites, builtPageWrites } from "../test/support/writes.ts";

// Every write, API and page, listed from the routers themselves, posted each content type and a
// few junk bodies, as anonymous, a signed-in customer and an admin: never a 5xx, never an error in
// the log. What the client got wrong is a 4xx (or the write's own answer).

const TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "multipart/form-data",
  "text/plain",
  null,
];
const BODIES = [
  "",
  "{",
  '{"name":null,"email":null,"password":null,"items":null,"version":null,"amount":null,"key":null}',
  "a=%zz&email=%&intent=%E0%A4%A&version=-1",
  '--fuzz\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n--fuzz',
  "\u0000\ufffe\ud800",
];

type App = Awaited<ReturnType<typeof testAppOnFreshDatabase>>["app"];

/** Sends every body in every type to each write as each identity; the answers of 500 or more. */
async function fuzz(app: App, writes: Array<{ method: string; path: string }>, identities: Record<string, () => Promise<string | null>>) {
  const failures: string[] = [];
  for (const { method, path } of writes) {
    // The back office's writes as an admin (anyone else is refused before the body), the rest as a customer; all as anonymous.
    const back = /^\/(?:api\/)?admin\//.test(path);
    for (const [who, signIn] of Object.entries(identities).filter(([who]) => who === "anonymous" || (who === "admin") === back)) {
      // Signed in afresh for each write: a junk body may well sign the last session out.
      const cookie = await signIn();
      for (const type of TYPES) {
        for (const body of BODIES) {
          const headers: Record<string, string> = { origin: TEST_ORIGIN, ...(type && { "content-type": type }), ...(cookie && { cookie }) };
          // Without a Content-Type a string body would be sent as text/plain: bytes say nothing of their type.
          const response = await app.request(`${TEST_ORIGIN}${path}`, { method, headers, body: new TextEncoder().encode(body) });
          if (response.status >= 500) failures.push(`${method} ${path} as ${who}, ${type ?? "no type"}, ${JSON.stringify(body)}: ${response.status} ${await response.text()}`);
        }
      }
    }
  }
  return failures;
}

describe.each(testEngines())("junk bodies to every write on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(pages: boolean) {
    const { log, records } = memoryLogger();
    // better-auth's rate limit would answer most of these 429 before reading them.
    const env = { AUTH_RATE_LIMIT_MAX: "1000000" };
    const shop = await testAppOnFreshDatabase(engine, cleanup, { log, env, catalogue: "database", ...(pages && { ssr: await builtPages() }) });
    cleanup(() => shop.services.catalogueEvents.close());
    let accounts = 0;
    const identities = {
      anonymous: async () => null,
      customer: () => signUpWithCookies(shop.app, `shopper${++accounts}@example.com`),
      admin: () => signUpAdmin(shop.app, shop.services, `boss${++accounts}@example.com`),
    };
    return { ...shop, identities, errors: () => records.filter((r) => (r.level as number) >= 50) };
  }

  it("answers every API write 4xx, never 5xx, whatever the body and its type", { timeout: 120_000 }, async () => {
    const { app, identities, errors } = await setup(false);
    const writes = apiWrites(app.routes);
    // The list is the routers': better-auth's writes and the back office's are in it.
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual(
      expect.arrayContaining(["POST /api/auth/update-user", "POST /api/auth/sign-in/email", "POST /api/payment/create", "POST /api/admin/products/1/image"]),
    );
    expect(await fuzz(app, writes, identities)).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it("answers every page action 4xx or its own answer, never 5xx, whatever the body and its type", { timeout: 120_000 }, async () => {
    const { app, identities, errors } = await setup(true);
    const writes = (await builtPageWrites()).flatMap((path) => [path, `${path.replace(/\?index$/, "")}.data${path.endsWith("?index") ? "?index" : ""}`]);
    expect(writes).toEqual(expect.arrayContaining(["/auth", "/auth.data", "/auth/forgot", "/auth/reset", "/admin/products/1", "/admin/products/1.data"]));
    expect(await fuzz(app, writes.map((path) => ({ method: "POST", path })), identities)).toEqual([]);
    expect(errors()).toEqual([]);
  });
});
