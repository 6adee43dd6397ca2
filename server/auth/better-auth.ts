import { betterAuth } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { getMigrations } from "better-auth/db/migration";
import { sql } from "kysely";
import * as z from "zod";
import type { Config } from "../config.ts";
import type { AppDatabase } from "../db/database.ts";
import type { Logger } from "../log.ts";
import { grantListedAdmins } from "./staff.ts";
import { type SendVerificationEmail, VERIFY_TOKEN_SECONDS } from "./email-verification.ts";
import { forgetResetTokens, type PasswordResetHooks, RESET_TOKEN_SECONDS } from "./password-reset.ts";

/** The header our HTTP layer fills with the client's address; anything a client sends under it is dropped. */
export const CLIENT_IP_HEADER = "x-storefront-client-ip";
export const COOKIE_PREFIX = "storefront";
export const AUTH_BASE_PATH = "/api/auth";
export const SESSION_COOKIE_CACHE_SECONDS = 60;
const MIGRATION_LOCK = 0x53_74_6f_72; // "Stor": one PostgreSQL advisory lock for concurrent first starts

export type AuthSettings = Pick<
  Config,
  "PUBLIC_URL" | "TRUSTED_ORIGINS" | "AUTH_RATE_LIMIT_MAX" | "AUTH_RATE_LIMIT_WINDOW_SECONDS" | "ADMIN_EMAILS"
>;

/** How ended sessions are told apart from live ones (revocations.ts). */
export interface SessionEnd {
  /** Runs before any session row is deleted: sign-out, a replaced or revoked session. */
  ending(sessionId: string): Promise<void>;
  isRevoked(sessionId: string): boolean;
}

/** What a successful /change-password answers, as far as we read it. */
const changedPassword = z.object({ user: z.object({ id: z.string() }) });

/** better-auth as the shop sets it up: email and password, sessions and rate limits in our database. */
export function createBetterAuth(
  database: AppDatabase,
  secret: string,
  settings: AuthSettings,
  log: Logger,
  { reset, sessions, sendVerificationEmail }: { reset: PasswordResetHooks; sessions: SessionEnd; sendVerificationEmail?: SendVerificationEmail },
) {
  const admins = new Set(settings.ADMIN_EMAILS.map((email) => email.toLowerCase()));
  const grantIfListed = async (email: string) => {
    if (admins.has(email.toLowerCase())) await grantListedAdmins(database.db, [email]);
  };
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
    logger: { log: (level: string, message: string) => authLog(log, level, message) },
    user: {
      // The role: `customer` or `admin` (server/auth/staff.ts); never set by a client's sign-up.
      additionalFields: { role: { type: "string", required: false, defaultValue: "customer", input: false } },
    },
    session: {
      // A page learns its user from a signed cookie that better-auth keeps for a minute, instead of
      // a database read per request. A copy of that cookie would outlive a sign-out by up to that
      // minute, so every ended session is also put on the revocation list (revocations.ts) that
      // AuthService checks the cached cookie against.
      // better-auth compares the cached cookie's version with this one; a revoked session's differs,
      // so its cache is dropped and the session looked up in the database, where it is gone.
      cookieCache: {
        enabled: true,
        maxAge: SESSION_COOKIE_CACHE_SECONDS,
        version: (session) => (sessions.isRevoked(session.id) ? "revoked" : "1"),
      },
    },
    hooks: authHooks(database, grantIfListed),
    // Sign-up mails "Confirm your Storefront email address" with a link to better-auth's own
    // /verify-email. Shoppers need not open it to shop (requireEmailVerification stays off); it is
    // what makes an ADMIN_EMAILS address an admin. The link only confirms: it signs nobody in.
    emailVerification: {
      ...(sendVerificationEmail ? { sendVerificationEmail } : {}),
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_TOKEN_SECONDS,
      afterEmailVerification: async (user) => grantIfListed(user.email),
    },
    databaseHooks: {
      session: {
        // Before the row goes: once the sign-out has answered, every instance already refuses it.
        delete: { before: async (session) => void (await sessions.ending(session.id)) },
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Password reset: the link works once, for 15 minutes, and ends every session.
      ...(reset.sendResetPassword ? { sendResetPassword: reset.sendResetPassword } : {}),
      // The link used is gone; so is every other one the user was mailed.
      onPasswordReset: async (data) => {
        await forgetResetTokens(database.db, data.user.id);
        await reset.onPasswordReset(data);
      },
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
    },
    rateLimit: rateLimits(settings),
    advanced: cookieOptions(settings),
  });
}

export type BetterAuth = ReturnType<typeof createBetterAuth>;

/**
 * Creates better-auth's tables (a no-op once they exist). Several instances starting together on
 * one PostgreSQL take turns under an advisory lock, so none sees a half-made schema.
 */
export async function migrateAuthTables(database: AppDatabase, auth: BetterAuth): Promise<void> {
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

/** better-auth's own log lines, at their level, marked as its. */
function authLog(log: Logger, level: string, message: string): void {
  if (level === "error") log.error({ source: "better-auth" }, message);
  else if (level === "warn") log.warn({ source: "better-auth" }, message);
  else log.debug({ source: "better-auth" }, message);
}

/** What the shop does around better-auth's own endpoints. */
function authHooks(database: AppDatabase, grantIfListed: (email: string) => Promise<void>) {
  return {
    // ADMIN_EMAILS: a listed account whose address is confirmed is made an admin before its
    // sign-in reads it, so the session (and its cached cookie) starts with the role. One that
    // is not confirmed stays a customer: anyone can sign up with any address.
    before: createAuthMiddleware(async (ctx) => {
      const email = ctx.path === "/sign-in/email" ? (ctx.body as { email?: unknown } | undefined)?.email : undefined;
      if (typeof email === "string") await grantIfListed(email);
    }),
    // A new password makes every reset link mailed before it useless, as a reset does (onPasswordReset).
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/change-password") return;
      const changed = changedPassword.safeParse(ctx.context.returned);
      if (changed.success) await forgetResetTokens(database.db, changed.data.user.id);
    }),
  };
}

/** better-auth's rate limits: the account endpoints at AUTH_RATE_LIMIT_MAX per window, the rest at 100 a minute. */
function rateLimits(settings: AuthSettings) {
  const limit = { window: settings.AUTH_RATE_LIMIT_WINDOW_SECONDS, max: settings.AUTH_RATE_LIMIT_MAX };
  return {
    enabled: true,
    // In the database, so the limit holds across every instance on one PostgreSQL.
    storage: "database" as const,
    window: 60,
    max: 100,
    customRules: {
      "/sign-in/email": limit,
      "/sign-up/email": limit,
      "/request-password-reset": limit,
      "/reset-password": limit,
      "/send-verification-email": limit,
    },
  };
}

/** The session cookies: our prefix, Secure on https, and the client's address from our HTTP layer. */
function cookieOptions(settings: AuthSettings) {
  return {
    cookiePrefix: COOKIE_PREFIX,
    useSecureCookies: settings.PUBLIC_URL.startsWith("https:"),
    // The address comes from our HTTP layer (socket, or X-Forwarded-For only behind TRUST_PROXY).
    ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    defaultCookieAttributes: { httpOnly: true, sameSite: "lax" as const },
  };
}
