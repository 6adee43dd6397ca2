import { afterEach, describe, expect, it, vi } from "vitest";
import { startSmtpServer, type TestSmtpServer, textOf } from "../../test/support/smtp-server.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { listOutbox } from "../mail/outbox.ts";
import { jsonPost, testApp } from "../../test/support/app.ts";
import { RESET_LINK_INVALID, RESET_REQUESTED } from "./password-reset.ts";

// The reset flow as /auth/forgot and /auth/reset run it (in-process, as their actions do), with
// the mail going through the outbox to a real SMTP server.

const OLD = "old password 1";
const NEW = "new password 2";
const IP = "203.0.113.7";

afterEach(() => {
  vi.useRealTimers();
});

describe.each(testEngines())("password reset on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const smtp = await startSmtpServer();
    cleanup(smtp.close);
    const { app, services } = await testApp({ database, env: { SMTP_URL: smtp.url, ...env } });
    cleanup(() => services.mail.close());
    const email = `reset.${engine}.${Math.random().toString(36).slice(2)}@example.com`;
    const registered = await app.request("/api/auth/sign-up/email", jsonPost({ email, password: OLD, name: email }));
    expect(registered.status).toBe(200);
    // The sign-up's own mail (confirming the address) leaves first: these tests count reset mail.
    expect(await services.mail.worker.drain()).toBe(1);
    expect((await smtp.waitForAccepted(1)).map((m) => m.subject)).toEqual(["Confirm your Storefront email address"]);
    smtp.accepted.length = 0;
    /** Signs in as a browser would and returns every cookie it got (session token and the session cache). */
    const signIn = async (password: string) => {
      const response = await app.request("/api/auth/sign-in/email", jsonPost({ email, password }));
      return { status: response.status, cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
    };
    const userOf = async (cookie: string) => (await services.auth.sessionUser(new Headers({ cookie }))).user?.email ?? null;
    return { app, services, database, smtp, email, signIn, userOf, reset: services.auth.passwordReset };
  }

  /** The token of the link in the newest mail. */
  const tokenFrom = (smtp: TestSmtpServer) => {
    const text = textOf(smtp.accepted.at(-1)!);
    const link = /http:\/\/localhost:3000\/auth\/reset\?token=(\S+)/.exec(text);
    expect(link, text).not.toBeNull();
    return decodeURIComponent(link![1]!);
  };

  it("mails a link that sets the new password once, signs in, ends every other session and refuses the old password", async () => {
    const { services, database, smtp, email, signIn, userOf, reset } = await setup();
    const elsewhere = await signIn(OLD); // another browser, with a fresh session cache cookie
    expect(await userOf(elsewhere.cookie)).toBe(email);

    expect(await reset.request(email, IP)).toEqual({ ok: true, message: RESET_REQUESTED });
    expect(await services.mail.worker.drain()).toBe(1);
    const mail = smtp.accepted[0]!;
    expect(mail.subject).toBe("Reset your Storefront password");
    expect(mail.to).toMatchObject({ value: [{ address: email }] });
    expect(textOf(mail)).toContain("within 15 minutes");
    const token = tokenFrom(smtp);
    expect(await reset.check(token)).toEqual({ ok: true });

    const done = await reset.reset(token, NEW, IP);
    expect(done).toMatchObject({ ok: true, user: { email } });
    const fresh = done.ok ? done.setCookies.map((c) => c.split(";")[0]).join("; ") : "";
    expect(await userOf(fresh)).toBe(email);
    // The other browser is signed out at once, though its session cache cookie has not expired.
    expect(await userOf(elsewhere.cookie)).toBeNull();
    expect((await signIn(OLD)).status).toBe(401);
    expect((await signIn(NEW)).status).toBe(200);

    // Used once: the second time is refused and the password stays.
    expect(await reset.reset(token, "third password 3", IP)).toEqual({ ok: false, status: 400, message: RESET_LINK_INVALID });
    expect(await reset.check(token)).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect((await signIn(NEW)).status).toBe(200);
    // The token does not stay in the outbox once the mail has left.
    expect((await listOutbox(database.db, 5))[0]).toMatchObject({ kind: "password_reset", status: "sent", payload: "{}" });
  });

  it("ends cached sessions at once after a reset through better-auth's own API too", async () => {
    const { app, services, smtp, email, signIn, userOf, reset } = await setup();
    const elsewhere = await signIn(OLD);
    expect(await userOf(elsewhere.cookie)).toBe(email);
    const asked = await app.request("/api/auth/request-password-reset", jsonPost({ email }));
    expect(await asked.json()).toMatchObject({ status: true });
    await services.mail.worker.drain();
    const token = tokenFrom(smtp);
    const done = await app.request("/api/auth/reset-password", jsonPost({ token, newPassword: NEW }));
    expect(done.status).toBe(200);
    expect(await userOf(elsewhere.cookie)).toBeNull();
    expect(await reset.check(token)).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect((await signIn(NEW)).status).toBe(200);
  });

  it("ends every older link once a newer one has set the password: the older one answers as a used link", async () => {
    const { app, services, smtp, signIn, reset, email } = await setup();
    expect(await reset.request(email, IP)).toEqual({ ok: true, message: RESET_REQUESTED });
    expect(await reset.request(email, IP)).toEqual({ ok: true, message: RESET_REQUESTED });
    expect(await services.mail.worker.drain()).toBe(2);
    const [older, newer] = smtp.accepted.map((mail) => decodeURIComponent(/\/auth\/reset\?token=(\S+)/.exec(textOf(mail))![1]!));
    expect(older).not.toBe(newer);
    expect(await reset.check(older!)).toEqual({ ok: true });

    expect(await reset.reset(newer!, NEW, IP)).toMatchObject({ ok: true, user: { email } });
    // The reset page says of the older link what it says of a used one, and it sets nothing.
    expect(await reset.check(older!)).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect(await reset.reset(older!, "third password 3", IP)).toEqual({ ok: false, status: 400, message: RESET_LINK_INVALID });
    const raw = await app.request("/api/auth/reset-password", jsonPost({ token: older, newPassword: "third password 3" }));
    expect({ status: raw.status, body: await raw.json() }).toMatchObject({ status: 400, body: { code: "INVALID_TOKEN" } });
    expect((await signIn("third password 3")).status).toBe(401);
    expect((await signIn(NEW)).status).toBe(200);
  });

  it("ends every outstanding link when the password is changed, and leaves other accounts' links alone", async () => {
    const { app, services, smtp, signIn, reset, email } = await setup();
    const other = `other.${engine}@example.com`;
    expect((await app.request("/api/auth/sign-up/email", jsonPost({ email: other, password: OLD, name: other }))).status).toBe(200);
    await reset.request(email, IP);
    await reset.request(other, IP);
    await services.mail.worker.drain();
    const linkTo = (address: string) => {
      const mail = smtp.accepted.find((m) => m.subject === "Reset your Storefront password" && m.to && !Array.isArray(m.to) && m.to.value[0]?.address === address)!;
      return decodeURIComponent(/\/auth\/reset\?token=(\S+)/.exec(textOf(mail))![1]!);
    };
    const mine = linkTo(email);
    const theirs = linkTo(other);

    const { cookie } = await signIn(OLD);
    const changed = await app.request("/api/auth/change-password", jsonPost({ currentPassword: OLD, newPassword: NEW }, { cookie }));
    expect(changed.status).toBe(200);
    expect(await reset.check(mine)).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect(await reset.reset(mine, "third password 3", IP)).toEqual({ ok: false, status: 400, message: RESET_LINK_INVALID });
    expect((await signIn(NEW)).status).toBe(200);
    expect(await reset.check(theirs)).toEqual({ ok: true });
  });

  it("refuses a link older than 15 minutes (fake clock)", async () => {
    const { services, smtp, email, signIn, reset } = await setup();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await reset.request(email, IP);
    await services.mail.worker.drain();
    const token = tokenFrom(smtp);
    vi.setSystemTime(Date.now() + 14 * 60 * 1000);
    expect(await reset.check(token)).toEqual({ ok: true });
    vi.setSystemTime(Date.now() + 60 * 1000 + 1);
    expect(await reset.check(token)).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect(await reset.reset(token, NEW, IP)).toEqual({ ok: false, status: 400, message: RESET_LINK_INVALID });
    expect((await signIn(OLD)).status).toBe(200);
    expect((await signIn(NEW)).status).toBe(401);
  });

  it("gives an unknown email the same answer and sends no mail", async () => {
    const { services, database, smtp, email, reset } = await setup();
    const unknown = await reset.request(`nobody.${engine}@example.com`, IP);
    const known = await reset.request(email, IP);
    expect(unknown).toEqual(known);
    expect(unknown).toEqual({ ok: true, message: "If an account exists for that email, we sent a link to reset the password." });
    expect(await services.mail.worker.drain()).toBe(1);
    expect(smtp.accepted.map((m) => m.to)).toEqual([expect.objectContaining({ value: [expect.objectContaining({ address: email })] })]);
    expect((await listOutbox(database.db, 10)).filter((r) => r.kind === "password_reset").map((r) => r.recipient)).toEqual([email]);
  });

  it("limits requests per client (429) and reset mails per email (same answer, no more mail)", async () => {
    const { services, smtp, email, reset } = await setup({ AUTH_RATE_LIMIT_MAX: "3" });
    for (let i = 0; i < 3; i++) expect((await reset.request(`someone${i}@example.com`, IP)).ok).toBe(true);
    expect(await reset.request(email, IP)).toEqual({ ok: false, status: 429, message: expect.stringMatching(/too many requests/i) });
    // From other clients the same address asks 5 times: 3 mails, and the same answer every time.
    for (let i = 0; i < 5; i++) expect(await reset.request(email, `198.51.100.${i}`)).toEqual({ ok: true, message: RESET_REQUESTED });
    expect(await services.mail.worker.drain()).toBe(3);
    expect(smtp.accepted).toHaveLength(3);
  });
});
