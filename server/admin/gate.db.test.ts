import { describe, expect, it } from "vitest";
import { jsonPost, signUp, testApp, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { signUpAdmin, signUpWithCookies } from "../../test/support/admin.ts";
import { confirmEmail } from "../../test/support/confirm-email.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { COMMAND_LINE } from "../audit/log.ts";
import { setRole } from "../auth/staff.ts";

// The staff role. Everything under /api/admin answers 404 to anyone but an admin, the same 404
// as an address that does not exist; ADMIN_EMAILS and `npm run admin` make admins.

describe.each(testEngines())("the admin gate on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = (env: Record<string, string> = {}) => testAppOnFreshDatabase(engine, cleanup, { env });

  const answer = async (response: Response) => ({ status: response.status, body: await response.text() });

  it("answers 404 to anonymous visitors and customers, exactly as for an address that does not exist", async () => {
    const { app } = await setup();
    const customer = await signUp(app, "ada@example.com");
    for (const headers of [{}, { cookie: customer }] as Array<Record<string, string>>) {
      expect(await answer(await app.request("/api/admin/audit", { headers }))).toEqual({ status: 404, body: JSON.stringify({ error: "No API endpoint GET /api/admin/audit." }) });
      const unknown = await answer(await app.request("/api/admin/no-such-thing", { headers }));
      expect(unknown).toEqual({ status: 404, body: JSON.stringify({ error: "No API endpoint GET /api/admin/no-such-thing." }) });
      // A write is refused the same way (no 405 that would say the address exists).
      expect((await app.request("/api/admin/audit", { ...jsonPost({}), headers: { ...jsonPost({}).headers, ...headers } })).status).toBe(404);
    }
  });

  it("lets an admin in, privately", async () => {
    const { app, services } = await setup();
    const admin = await signUpAdmin(app, services);
    const response = await app.request("/api/admin/audit", { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const { entries } = (await response.json()) as { entries: Array<{ action: string; actor: string; target: string }> };
    expect(entries).toEqual([expect.objectContaining({ action: "staff.grant", actor: "npm run admin", target: "user:boss@example.com" })]);
  });

  it("makes ADMIN_EMAILS accounts admins once their address is confirmed, and when they sign in", async () => {
    const { app, services } = await setup();
    // chief signs up and confirms the address before the list names them: a customer until then.
    await signUp(app, "chief@example.com");
    await confirmEmail(app, services.database.db, "chief@example.com");
    // The shop started again, on the same database, with the list.
    const { app: shop } = await testApp({ database: services.database, env: { ADMIN_EMAILS: "Boss@Example.com, chief@example.com" } });
    const boss = await signUp(shop, "boss@example.com");
    expect((await shop.request("/api/admin/audit", { headers: { cookie: boss } })).status).toBe(404);
    await confirmEmail(shop, services.database.db, "boss@example.com");
    expect((await shop.request("/api/admin/audit", { headers: { cookie: boss } })).status).toBe(200);
    const signIn = await shop.request("/api/auth/sign-in/email", jsonPost({ email: "chief@example.com", password: "correct horse" }));
    const chief = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect((await shop.request("/api/admin/audit", { headers: { cookie: chief } })).status).toBe(200);
    // The session knows its role from the start: the header's Admin link needs no second request.
    const session = (await (await shop.request("/api/auth/get-session", { headers: { cookie: chief } })).json()) as { user: { role: string } };
    expect(session.user.role).toBe("admin");
    // Nobody else is made one.
    const other = await signUp(shop, "ada@example.com");
    expect((await shop.request("/api/admin/audit", { headers: { cookie: other } })).status).toBe(404);
  });

  it("shuts a revoked admin out at once, whatever their session has cached", async () => {
    const { app, services } = await setup();
    const admin = await signUpAdmin(app, services);
    expect((await app.request("/api/admin/audit", { headers: { cookie: admin } })).status).toBe(200);
    expect(await setRole(services.database.db, "boss@example.com", "customer", COMMAND_LINE)).toEqual({ ok: true, changed: true });
    expect((await app.request("/api/admin/audit", { headers: { cookie: admin } })).status).toBe(404);
  });

  it("pages the audit log newest first", async () => {
    const { app, services } = await setup();
    const admin = await signUpAdmin(app, services);
    await signUpWithCookies(app, "ada@example.com");
    await setRole(services.database.db, "ada@example.com", "admin", COMMAND_LINE);
    await setRole(services.database.db, "ada@example.com", "customer", COMMAND_LINE);
    const first = (await (await app.request("/api/admin/audit?limit=2", { headers: { cookie: admin } })).json()) as { entries: Array<{ action: string; target: string }>; next: string };
    expect(first.entries.map((e) => `${e.action} ${e.target}`)).toEqual(["staff.revoke user:ada@example.com", "staff.grant user:ada@example.com"]);
    const second = (await (await app.request(`/api/admin/audit?limit=2&before=${encodeURIComponent(first.next)}`, { headers: { cookie: admin } })).json()) as {
      entries: Array<{ action: string; target: string; before: unknown; after: unknown }>;
      next: string | null;
    };
    expect(second).toEqual({ entries: [expect.objectContaining({ action: "staff.grant", target: "user:boss@example.com", before: { role: "customer" }, after: { role: "admin" } })], next: null });
    expect((await app.request("/api/admin/audit?before=nonsense", { headers: { cookie: admin } })).status).toBe(400);
  });
});
