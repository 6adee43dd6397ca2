import { describe, expect, it } from "vitest";
import { jsonPost, signUp, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { signUpAdmin } from "../../test/support/admin.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";

// The back office's pages exist for admins only. Anyone else gets the shop's own 404 page, the
// same as for an address that does not exist, and no Admin link in the header.

/** The page without what differs per response (the CSP nonce), to compare two pages. */
const stripped = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

describe.each(testEngines())("the back office's pages on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = async () => testAppOnFreshDatabase(engine, cleanup, { catalogue: "database", ssr: await builtPages() });

  it("answers anonymous visitors and customers with the shop's 404 page, as for an address that does not exist", async () => {
    const { app } = await setup();
    const customer = await signUp(app, "ada@example.com");
    for (const headers of [{}, { cookie: customer }] as Array<Record<string, string>>) {
      const missing = await app.request("/no-such-page", { headers });
      for (const address of ["/admin", "/admin/audit", "/admin/products", "/admin/orders"]) {
        const response = await app.request(address, { headers });
        expect(response.status, address).toBe(404);
        expect(stripped(await response.text()), address).toBe(stripped(await (await app.request("/no-such-page", { headers })).text()));
      }
      expect(missing.status).toBe(404);
      // The data requests of client-side navigation too.
      expect((await app.request("/admin/audit.data", { headers })).status).toBe(404);
      const home = await (await app.request("/", { headers })).text();
      expect(home).not.toContain('href="/admin"');
      const version = /"version":\s*"([^"]+)"/.exec(home)![1]!;
      // Nor does React Router's route discovery give away the back office's routes.
      const manifest = await app.request(`/__manifest?paths=%2Fadmin%2C%2Fadmin%2Faudit%2C%2Fcart&version=${version}`, { headers });
      const routes = await manifest.text();
      expect(routes).toContain("routes/cart");
      expect(routes).not.toContain("admin");
    }
  });

  it("shows an admin the back office, and the header's Admin link", async () => {
    const { app, services } = await setup();
    await signUpAdmin(app, services);
    // Signed in after the grant, as an operator's new admin does (a session older than the grant
    // shows the link once its cached copy is renewed, within a minute; the gate never waits).
    const signIn = await app.request("/api/auth/sign-in/email", jsonPost({ email: "boss@example.com", password: "correct horse" }));
    const admin = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const home = await (await app.request("/", { headers: { cookie: admin } })).text();
    expect(home).toContain('href="/admin"');
    const overview = await app.request("/admin", { headers: { cookie: admin } });
    expect(overview.status).toBe(200);
    expect(overview.headers.get("cache-control")).toBe("private, no-store");
    expect(await overview.text()).toContain("Back office");
    const audit = await (await app.request("/admin/audit", { headers: { cookie: admin } })).text();
    expect(audit).toContain("staff.grant");
    expect(audit).toContain("user:boss@example.com");
    const version = /"version":\s*"([^"]+)"/.exec(home)![1]!;
    const manifest = await app.request(`/__manifest?paths=%2Fadmin%2Faudit&version=${version}`, { headers: { cookie: admin } });
    expect(await manifest.text()).toContain("routes/admin/audit");
  });
});
