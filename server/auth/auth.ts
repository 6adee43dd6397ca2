import { getSessionCookie } from "better-auth/cookies";
import type { Kysely } from "kysely";
import { grantListedAdmins, roleOf } from "./staff.ts";
import type { Schema } from "../db/schema.ts";
import type { AppDatabase } from "../db/database.ts";
import { generatedSetting } from "../db/settings.ts";
import type { Logger } from "../log.ts";
import {
  AUTH_BASE_PATH,
  type AuthSettings,
  type BetterAuth,
  CLIENT_IP_HEADER,
  COOKIE_PREFIX,
  createBetterAuth,
  migrateAuthTables,
  SESSION_COOKIE_CACHE_SECONDS,
} from "./better-auth.ts";
import { type SendVerificationEmail, verificationMailWriter } from "./email-verification.ts";
import { PasswordReset, resetMailWriter, type SendResetPassword } from "./password-reset.ts";
import { QuietStorages } from "./quiet-storages.ts";
import type { AuthResult, SessionUser } from "./session-user.ts";
import { RecentRevocations } from "./recent-resets.ts";
import { SessionRevocations } from "./revocations.ts";
import { sessionCacheExpiry, VerifiedSessions } from "./session-cache.ts";

export type { AuthResult, SessionUser };

/** How long an ended session stays on the revocation list: a cache cookie's lifetime, plus clock skew between instances. */
const REVOCATION_KEEP_MS = (SESSION_COOKIE_CACHE_SECONDS + 60) * 1000;

const toSessionUser = (user: { id: string; email: string; role?: unknown }): SessionUser => ({ uid: user.id, email: user.email, role: roleOf(user.role) });

/** The mail accounts send: reset links, and the confirmation of a new account's address. */
export interface AuthMail {
  sendResetPassword: SendResetPassword;
  sendVerificationEmail: SendVerificationEmail;
}

/** Both of the accounts' mails, written to the outbox; `wake` tells the worker there is mail. */
export const authMail = (db: Kysely<Schema>, log: Logger, wake: () => void): AuthMail => ({
  sendResetPassword: resetMailWriter(db, log, wake),
  sendVerificationEmail: verificationMailWriter(db, log, wake),
});

/**
 * Accounts: better-auth in our own server, sessions in our database. Pages reach it in-process
 * through these methods, which answer results rather than throwing; browsers and other clients
 * reach better-auth's own routes under /api/auth through `handler`.
 */
export class AuthService {
  private readonly verified = new VerifiedSessions();
  /** Forgotten passwords: /auth/forgot and /auth/reset. */
  readonly passwordReset: PasswordReset;

  private constructor(
    private readonly auth: BetterAuth,
    private readonly settings: AuthSettings,
    database: AppDatabase,
    private readonly revocations: SessionRevocations,
    private readonly resets: RecentRevocations,
    /** Every call into better-auth goes through it (quiet-storages.ts). */
    private readonly quiet: QuietStorages,
  ) {
    this.passwordReset = new PasswordReset(
      database.db,
      (path, body, clientIp) => this.call(path, body, clientIp),
      (email, password, clientIp) => this.signIn(email, password, clientIp),
    );
  }

  /**
   * Builds better-auth on `database`, creating its tables and its secret the first time, and makes
   * the ADMIN_EMAILS accounts whose addresses are confirmed admins. Without `mail` (the command
   * line) no reset or confirmation mail can be asked for.
   */
  static async create(database: AppDatabase, settings: AuthSettings, log: Logger, mail?: AuthMail): Promise<AuthService> {
    const secret = await generatedSetting(database.db, "auth_secret");
    const revocations = new SessionRevocations(database, REVOCATION_KEEP_MS, log);
    const resets = new RecentRevocations(SESSION_COOKIE_CACHE_SECONDS * 1000);
    const auth = createBetterAuth(database, secret, settings, log, {
      reset: { sendResetPassword: mail?.sendResetPassword, onPasswordReset: async ({ user }) => resets.add(user.id) },
      sessions: { ending: (sessionId) => revocations.revoke(sessionId), isRevoked: (sessionId) => revocations.isRevoked(sessionId) },
      sendVerificationEmail: mail?.sendVerificationEmail,
    });
    await migrateAuthTables(database, auth);
    // An address listed since the owner confirmed it: an admin from now, not from their next sign-in.
    await grantListedAdmins(database.db, settings.ADMIN_EMAILS);
    await revocations.ready();
    return new AuthService(auth, settings, database, revocations, resets, await QuietStorages.create());
  }

  /** Stops listening for other instances' revocations. */
  close(): Promise<void> {
    return this.revocations.close();
  }

  /** better-auth's own routes (/api/auth/*), given the untouched request. */
  handler(request: Request): Promise<Response> {
    // Asked directly, a reset link request answers after the same time as through /auth/forgot.
    const handle = () => this.quiet.run(() => this.auth.handler(request));
    if (new URL(request.url).pathname === `${AUTH_BASE_PATH}/request-password-reset`) return this.passwordReset.evenly(handle);
    return handle();
  }

  /** True when the request carries a session cookie at all: without one there is nothing to look up. */
  hasSessionCookie(headers: Headers): boolean {
    return getSessionCookie(headers, { cookiePrefix: COOKIE_PREFIX }) !== null;
  }

  /**
   * The user of the request's session, or null when it has none or it is no longer valid, and the
   * cookies to send back: a renewed session cache, or the clearing of a dead session's cookies.
   */
  async sessionUser(headers: Headers): Promise<{ user: SessionUser | null; setCookies: string[] }> {
    const cookies = headers.get("cookie") ?? "";
    // A cookie header already verified is looked up as it is, before any cookie is parsed.
    const known = cookies ? this.knownUser(cookies) : null;
    if (known) return { user: known, setCookies: [] };
    if (!this.hasSessionCookie(headers)) return { user: null, setCookies: [] };
    let { headers: answer, response: session } = await this.quiet.run(() => this.auth.api.getSession({ headers, returnHeaders: true }));
    // A user whose sessions were just revoked: the cache cookie no longer counts, the database decides.
    const recheck = session !== null && this.resets.has(session.user.id);
    if (recheck) ({ headers: answer, response: session } = await this.quiet.run(() => this.auth.api.getSession({ headers, returnHeaders: true, query: { disableCookieCache: true } })));
    const user = session ? toSessionUser(session.user) : null;
    const setCookies = answer.getSetCookie();
    // Answered from the session cache cookie (nothing renewed): the same cookies mean the same user until it expires.
    const until = session && setCookies.length === 0 ? sessionCacheExpiry(cookies) : null;
    if (user && session && until && !recheck) this.verified.set(cookies, { user, sessionId: session.session.id }, until);
    return { user, setCookies };
  }

  /**
   * The user of a `cookie` header this process has already verified (sessionUser), while its
   * session cache cookie lasts, without a lookup: null when it is not known, has expired, or its
   * session has ended since. The same answer sessionUser gives it, in the same synchronous turn.
   */
  knownUser(cookies: string): SessionUser | null {
    const known = this.verified.get(cookies);
    // A session ended on any instance is refused at once, however valid its cached cookie still is;
    // so is every session of a shopper who has just reset the password.
    return known && !this.revocations.isRevoked(known.sessionId) && !this.resets.has(known.user.uid) ? known.user : null;
  }

  /**
   * Signs in. `replacing` is the request's cookie header when someone was already signed in on it:
   * that session is revoked once the new one exists, so switching accounts leaves nothing behind.
   */
  async signIn(email: string, password: string, clientIp: string, replacing?: Headers): Promise<AuthResult> {
    const result = await this.call("/sign-in/email", { email, password }, clientIp);
    if (result.ok && replacing && this.hasSessionCookie(replacing)) await this.quiet.run(() => this.auth.api.signOut({ headers: replacing })).catch(() => {});
    return result;
  }

  /**
   * better-auth wants a name; the shop never shows it (the header derives "Hello {name}" from the
   * email, spec section 1), so it is the email.
   */
  signUp(email: string, password: string, clientIp: string): Promise<AuthResult> {
    return this.call("/sign-up/email", { email, password, name: email }, clientIp);
  }

  signOut(headers: Headers, clientIp: string): Promise<AuthResult> {
    return this.call("/sign-out", {}, clientIp, headers.get("cookie"));
  }

  /**
   * Runs one of better-auth's endpoints as a browser request would, so a page's form gets exactly
   * what the HTTP API gives: the same validation, origin check, rate limit and cookies.
   */
  private async call(path: string, body: object, clientIp: string, cookie?: string | null): Promise<AuthResult> {
    const origin = new URL(this.settings.PUBLIC_URL).origin;
    const headers = new Headers({ "content-type": "application/json", origin, [CLIENT_IP_HEADER]: clientIp });
    if (cookie) headers.set("cookie", cookie);
    const request = new Request(`${origin}${AUTH_BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const response = await this.quiet.run(() => this.auth.handler(request));
    const payload = (await response.json().catch(() => null)) as {
      user?: { id?: unknown; email?: unknown; role?: unknown };
      message?: unknown;
    } | null;
    if (!response.ok) {
      const message = typeof payload?.message === "string" && payload.message ? payload.message : "Something went wrong. Please try again.";
      return { ok: false, status: response.status, message };
    }
    const user =
      typeof payload?.user?.id === "string" && typeof payload.user.email === "string"
        ? toSessionUser({ id: payload.user.id, email: payload.user.email, role: payload.user.role })
        : null;
    return { ok: true, user, setCookies: response.headers.getSetCookie() };
  }
}

