import { betterAuth } from "better-auth";
import { getSessionCookie, parseCookies } from "better-auth/cookies";
import { getMigrations } from "better-auth/db/migration";
import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { AppDatabase } from "../db/database.ts";
import { generatedSetting } from "../db/settings.ts";
import type { Logger } from "../log.ts";
import { PasswordReset, type PasswordResetHooks, RESET_TOKEN_SECONDS, type SendResetPassword } from "./password-reset.ts";
import { RecentRevocations } from "./revocations.ts";

/** The signed-in shopper as the app sees them (spec section 3): uid and email, nothing else. */
export interface SessionUser {
  uid: string;
  email: string;
}

/** What a sign-in, registration or sign-out gives the page that asked for it. */
export type AuthResult =
  | { ok: true; user: SessionUser | null; setCookies: string[] }
  | { ok: false; status: number; message: string };

/** The header our HTTP layer fills with the client's address; anything a client sends under it is dropped. */
export const CLIENT_IP_HEADER = "x-storefront-client-ip";
const COOKIE_PREFIX = "storefront";
const AUTH_BASE_PATH = "/api/auth";
const SESSION_COOKIE_CACHE_SECONDS = 60;
const MIGRATION_LOCK = 0x53_74_6f_72; // "Stor": one PostgreSQL advisory lock for concurrent first starts

export type AuthSettings = Pick<
  Config,
  "PUBLIC_URL" | "TRUSTED_ORIGINS" | "AUTH_RATE_LIMIT_MAX" | "AUTH_RATE_LIMIT_WINDOW_SECONDS"
>;

function createBetterAuth(database: AppDatabase, secret: string, settings: AuthSettings, log: Logger, reset: PasswordResetHooks) {
  const limit = { window: settings.AUTH_RATE_LIMIT_WINDOW_SECONDS, max: settings.AUTH_RATE_LIMIT_MAX };
  return betterAuth({
    appName: "Storefront",
    baseURL: settings.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret,
    // Our own Kysely, not the driver under it: on SQLite there is one connection, and only one
    // Kysely (one lock) keeps better-auth's transactions and ours from starting inside each other.
    database: { db: database.db, type: database.engine },
    trustedOrigins: settings.TRUSTED_ORIGINS,
    telemetry: { enabled: false },
    logger: {
      log: (level, message) => {
        if (level === "error") log.error({ source: "better-auth" }, message);
        else if (level === "warn") log.warn({ source: "better-auth" }, message);
        else log.debug({ source: "better-auth" }, message);
      },
    },
    session: {
      // A page learns its user from a signed cookie that better-auth keeps for a minute, instead of
      // a database read per request. The price: a session revoked elsewhere (another device signing
      // out) may still be seen for up to that minute; signing out here clears the cookie at once.
      cookieCache: { enabled: true, maxAge: SESSION_COOKIE_CACHE_SECONDS },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Password reset (issue 24): the link works once, for 15 minutes, and ends every session.
      ...(reset.sendResetPassword ? { sendResetPassword: reset.sendResetPassword } : {}),
      onPasswordReset: reset.onPasswordReset,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
    },
    rateLimit: {
      enabled: true,
      // In the database, so the limit holds across every instance on one PostgreSQL.
      storage: "database",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": limit, "/sign-up/email": limit, "/request-password-reset": limit, "/reset-password": limit },
    },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: settings.PUBLIC_URL.startsWith("https:"),
      // The address comes from our HTTP layer (socket, or X-Forwarded-For only behind TRUST_PROXY).
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
  });
}

type BetterAuth = ReturnType<typeof createBetterAuth>;

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
    private readonly revoked: RecentRevocations,
  ) {
    this.passwordReset = new PasswordReset(
      database.db,
      (path, body, clientIp) => this.call(path, body, clientIp),
      (email, password, clientIp) => this.signIn(email, password, clientIp),
    );
  }

  /** Builds better-auth on `database`, creating its tables and its secret the first time. */
  static async create(database: AppDatabase, settings: AuthSettings, log: Logger, sendResetPassword?: SendResetPassword): Promise<AuthService> {
    const secret = await generatedSetting(database.db, "auth_secret");
    const revoked = new RecentRevocations(SESSION_COOKIE_CACHE_SECONDS * 1000);
    const auth = createBetterAuth(database, secret, settings, log, { sendResetPassword, onPasswordReset: async ({ user }) => revoked.add(user.id) });
    await migrateAuthTables(database, auth);
    return new AuthService(auth, settings, database, revoked);
  }

  /** better-auth's own routes (/api/auth/*), given the untouched request. */
  handler(request: Request): Promise<Response> {
    // Asked directly, a reset link request answers after the same time as through /auth/forgot.
    if (new URL(request.url).pathname === `${AUTH_BASE_PATH}/request-password-reset`) return this.passwordReset.evenly(() => this.auth.handler(request));
    return this.auth.handler(request);
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
    if (!this.hasSessionCookie(headers)) return { user: null, setCookies: [] };
    const cookies = headers.get("cookie") ?? "";
    const known = this.verified.get(cookies);
    if (known && !this.revoked.has(known.uid)) return { user: known, setCookies: [] };
    let { headers: answer, response: session } = await this.auth.api.getSession({ headers, returnHeaders: true });
    // A user whose sessions were just revoked: the cache cookie no longer counts, the database decides.
    const recheck = session !== null && this.revoked.has(session.user.id);
    if (recheck) ({ headers: answer, response: session } = await this.auth.api.getSession({ headers, returnHeaders: true, query: { disableCookieCache: true } }));
    const user = session ? { uid: session.user.id, email: session.user.email } : null;
    const setCookies = answer.getSetCookie();
    // Answered from the session cache cookie (nothing renewed): the same cookies mean the same user until it expires.
    const until = user && setCookies.length === 0 ? sessionCacheExpiry(cookies) : null;
    if (user && until && !recheck) this.verified.set(cookies, user, until);
    return { user, setCookies };
  }

  /**
   * Signs in. `replacing` is the request's cookie header when someone was already signed in on it:
   * that session is revoked once the new one exists, so switching accounts leaves nothing behind.
   */
  async signIn(email: string, password: string, clientIp: string, replacing?: Headers): Promise<AuthResult> {
    const result = await this.call("/sign-in/email", { email, password }, clientIp);
    if (result.ok && replacing && this.hasSessionCookie(replacing)) await this.auth.api.signOut({ headers: replacing }).catch(() => {});
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
    const response = await this.auth.handler(
      new Request(`${origin}${AUTH_BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
    );
    const payload = (await response.json().catch(() => null)) as {
      user?: { id?: unknown; email?: unknown };
      message?: unknown;
    } | null;
    if (!response.ok) {
      const message = typeof payload?.message === "string" && payload.message ? payload.message : "Something went wrong. Please try again.";
      return { ok: false, status: response.status, message };
    }
    const user =
      typeof payload?.user?.id === "string" && typeof payload.user.email === "string"
        ? { uid: payload.user.id, email: payload.user.email }
        : null;
    return { ok: true, user, setCookies: response.headers.getSetCookie() };
  }
}

/**
 * Users of session cache cookies better-auth has already verified, until each cookie's own expiry:
 * a browser sends the same cookies with every request for up to a minute, and a repeat skips
 * better-auth's signature check (a WebCrypto key import and an HMAC per request). It accepts
 * exactly what better-auth's cookie cache accepts, for no longer; bounded, oldest dropped first.
 */
class VerifiedSessions {
  private readonly entries = new Map<string, { user: SessionUser; until: number }>();

  constructor(private readonly max = 5_000) {}

  get(cookies: string): SessionUser | null {
    const entry = this.entries.get(cookies);
    if (!entry) return null;
    if (Date.now() < entry.until) return entry.user;
    this.entries.delete(cookies);
    return null;
  }

  set(cookies: string, user: SessionUser, until: number): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(cookies, { user, until });
  }
}

/**
 * When the session cache cookie among `cookies` stops being accepted: the earlier of its own
 * expiry and its session's. Read from better-auth's compact encoding (base64url JSON); null when
 * there is no such cookie or it does not parse, and then nothing is remembered.
 */
export function sessionCacheExpiry(cookies: string): number | null {
  const name = `${COOKIE_PREFIX}.session_data`;
  const value = [...parseCookies(cookies)].find(([key]) => key === name || key === `__Secure-${name}`)?.[1];
  if (!value) return null;
  try {
    const payload = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as {
      expiresAt?: unknown;
      session?: { session?: { expiresAt?: unknown } };
    };
    const cache = payload.expiresAt;
    const session = new Date(payload.session?.session?.expiresAt as string).getTime();
    return typeof cache === "number" && Number.isFinite(session) ? Math.min(cache, session) : null;
  } catch {
    return null;
  }
}

/**
 * Creates better-auth's tables (a no-op once they exist). Several instances starting together on
 * one PostgreSQL take turns under an advisory lock, so none sees a half-made schema.
 */
async function migrateAuthTables(database: AppDatabase, auth: BetterAuth): Promise<void> {
  const migrate = async () => (await getMigrations(auth.options)).runMigrations();
  if (database.engine === "sqlite") return migrate();
  await database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      await migrate();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}
