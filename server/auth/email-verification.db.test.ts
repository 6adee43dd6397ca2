import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonPost, signUp, testApp, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { listOutbox } from "../mail/outbox.ts";

// Sign-up mails a link that confirms the address. Shoppers need not open it; an ADMIN_EMAILS
// address is only made an admin once it is confirmed (anyone can sign up with any address), and
// every grant is in the audit log.

const CONFIRM = "Confirm your Storefront email address";

/** A mailer that keeps what it is handed, as the recipient would get it. */
function keptMail(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (message) => void sent.push(message), close: () => {} };
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

afterEach(() => {
  vi.useRealTimers();
});

describe.each(testEngines())("email confirmation on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}) {
    const mailer = keptMail();
    const shop = await testAppOnFreshDatabase(engine, cleanup, { env, mail: { mailer } });
    const { app, services } = shop;
    /** The link of the newest confirmation mail to `email`, after the worker has sent what is due. */
    const linkFor = async (email: string) => {
      await services.mail.worker.drain();
      const mail = mailer.sent.filter((m) => m.to === email && m.subject === CONFIRM).at(-1);
      expect(mail, `no confirmation mail to ${email}`).toBeDefined();
      const link = /http:\/\/localhost:3000\/api\/auth\/verify-email\?token=\S+/.exec(mail!.text)?.[0];
      expect(link, mail!.text).toBeDefined();
      return new URL(link!);
    };
    const open = async (link: URL) => app.request(`${link.pathname}${link.search}`);
    const session = async (cookie: string) =>
      (await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { email: string; role: string; emailVerified: boolean } } | null;
    const backOffice = async (cookie: string) => (await app.request("/api/admin/audit", { headers: { cookie } })).status;
    const signIn = async (email: string) => cookiesOf(await app.request("/api/auth/sign-in/email", jsonPost({ email, password: "correct horse" })));
    const audit = () => services.database.db.selectFrom("audit_log").select(["actor", "action", "target"]).orderBy("at").orderBy("id").execute();
    return { ...shop, mailer, linkFor, open, session, backOffice, signIn, audit };
  }

  it("mails a confirmation link at sign-up; opening it confirms the address and sends the browser home, signed in or not", async () => {
    const { app, database, mailer, linkFor, open, session } = await setup();
    const cookie = await signUp(app, "ada@example.com");
    // Signed in at once, unconfirmed: shopping does not wait for the mail.
    expect(await session(cookie)).toMatchObject({ user: { email: "ada@example.com", emailVerified: false, role: "customer" } });
    const link = await linkFor("ada@example.com");
    expect(mailer.sent.map((m) => m.subject)).toEqual([CONFIRM]);
    expect(link.searchParams.get("callbackURL")).toBe("/");
    expect(mailer.sent[0]!.text).toContain("within 60 minutes");
    expect(mailer.sent[0]!.html).toContain(`href="${link.href.replaceAll("&", "&amp;")}"`);
    // The token does not stay in the outbox once the mail has left.
    expect((await listOutbox(database.db, 5))[0]).toMatchObject({ kind: "email_verification", status: "sent", payload: "{}" });

    const opened = await open(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/");
    // It confirms; it does not sign anyone in.
    expect(opened.headers.getSetCookie()).toEqual([]);
    const fresh = cookiesOf(await app.request("/api/auth/sign-in/email", jsonPost({ email: "ada@example.com", password: "correct horse" })));
    expect(await session(fresh)).toMatchObject({ user: { emailVerified: true, role: "customer" } });
  });

  it("a callback URL sent with the sign-up does not reach the mail", async () => {
    const { app, linkFor } = await setup();
    const response = await app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada@example.com", callbackURL: "/orders" }));
    expect(response.status).toBe(200);
    expect((await linkFor("ada@example.com")).searchParams.get("callbackURL")).toBe("/");
  });

  it("makes an ADMIN_EMAILS address an admin only once its owner has confirmed it, with a staff.grant entry", async () => {
    const { app, linkFor, open, session, backOffice, signIn, audit } = await setup({ ADMIN_EMAILS: "Boss@Example.com" });
    const early = await signUp(app, "boss@example.com");
    // Whoever signs up with the address first is a customer until the mailbox's owner opens the link.
    expect(await session(early)).toMatchObject({ user: { role: "customer" } });
    expect(await backOffice(early)).toBe(404);
    const again = await signIn("boss@example.com");
    expect(await backOffice(again)).toBe(404);
    expect(await audit()).toEqual([]);

    expect((await open(await linkFor("boss@example.com"))).status).toBe(302);
    expect(await backOffice(again)).toBe(200);
    const later = await signIn("boss@example.com");
    expect(await session(later)).toMatchObject({ user: { role: "admin" } });
    // One grant, by the list, naming the address; signing in again writes nothing more.
    expect(await audit()).toEqual([{ actor: "ADMIN_EMAILS", action: "staff.grant", target: "user:boss@example.com" }]);
    // Opening the link again changes nothing.
    expect((await open(await linkFor("boss@example.com"))).status).toBe(302);
    expect(await audit()).toHaveLength(1);
  });

  it("at start-up, makes confirmed listed accounts admins and leaves unconfirmed ones customers", async () => {
    const { app, services, linkFor, open, backOffice } = await setup();
    const chief = await signUp(app, "chief@example.com");
    expect((await open(await linkFor("chief@example.com"))).status).toBe(302);
    const mallory = await signUp(app, "boss@example.com");
    expect(await backOffice(chief)).toBe(404);

    // The shop started again, on the same database, with both listed.
    const { app: shop } = await testApp({ database: services.database, env: { ADMIN_EMAILS: "chief@example.com,BOSS@example.com" } });
    expect((await shop.request("/api/admin/audit", { headers: { cookie: chief } })).status).toBe(200);
    expect((await shop.request("/api/admin/audit", { headers: { cookie: mallory } })).status).toBe(404);
    const signedIn = cookiesOf(await shop.request("/api/auth/sign-in/email", jsonPost({ email: "boss@example.com", password: "correct horse" })));
    expect((await shop.request("/api/admin/audit", { headers: { cookie: signedIn } })).status).toBe(404);
    const entries = (await (await shop.request("/api/admin/audit", { headers: { cookie: chief } })).json()) as { entries: Array<{ actor: string; action: string; target: string }> };
    expect(entries.entries).toEqual([expect.objectContaining({ actor: "ADMIN_EMAILS", action: "staff.grant", target: "user:chief@example.com", before: { role: "customer" }, after: { role: "admin" } })]);
  });

  it("asking for the mail again gets the same answer every time, and an address at most three mails an hour", async () => {
    const { app, services, mailer } = await setup();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await signUp(app, "ada@example.com");
    for (let i = 0; i < 4; i++) {
      // A minute apart, so each link is a new one (a token made in the same second is the same token, and the same mail).
      vi.setSystemTime(Date.now() + 60_000);
      const asked = await app.request("/api/auth/send-verification-email", jsonPost({ email: "ada@example.com" }));
      expect({ status: asked.status, body: await asked.json() }).toEqual({ status: 200, body: { status: true } });
    }
    await services.mail.worker.drain();
    // The sign-up's and two more.
    expect(mailer.sent.filter((m) => m.subject === CONFIRM)).toHaveLength(3);
  });

  it("limits how often one client may ask for the mail (429), as sign-in and sign-up", async () => {
    const { app } = await setup({ AUTH_RATE_LIMIT_MAX: "2" });
    const ask = async () => (await app.request("/api/auth/send-verification-email", jsonPost({ email: "nobody@example.com" }))).status;
    expect([await ask(), await ask(), await ask()]).toEqual([200, 200, 429]);
  });
});
