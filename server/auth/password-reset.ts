import { setTimeout as delay } from "node:timers/promises";
import { sql, type Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { type SendTokenMail, tokenMailWriter } from "./token-mail.ts";
import type { AuthResult } from "./session-user.ts";

/** How long a reset link works (better-auth's resetPasswordTokenExpiresIn, in seconds). */
export const RESET_TOKEN_SECONDS = 15 * 60;
/**
 * Every request for a reset link is answered no sooner than this after it arrived: with or
 * without an account behind the email, the answer comes after the same time.
 */
const ANSWER_FLOOR_MS = 400;

/** The answer to every accepted request, whether an account exists or not. */
export const RESET_REQUESTED = "If an account exists for that email, we sent a link to reset the password.";
export const RESET_LINK_INVALID = "This password reset link has expired or has already been used. Ask for a new one below.";

/** better-auth's `sendResetPassword`: the reset mail in the outbox (at most three an address an hour). */
export const resetMailWriter = (db: Kysely<Schema>, log: Logger, wake: () => void): SendResetPassword =>
  tokenMailWriter("password_reset", RESET_TOKEN_SECONDS, { db, log, wake });

/**
 * Deletes every outstanding reset link of the user (better-auth keeps them in `verification`,
 * named `reset-password:<token>`, with the user's id as value). Run after a reset and after a
 * password change: a link mailed before either would otherwise still set a password, though the
 * password it was asked for is gone. Such a link then answers as a used one.
 */
export async function forgetResetTokens(db: Kysely<Schema>, userId: string): Promise<void> {
  await sql`delete from verification where identifier like ${"reset-password:%"} and value = ${userId}`.execute(db);
}

export type SendResetPassword = SendTokenMail;

/** What better-auth's options get from us for the reset flow. */
export interface PasswordResetHooks {
  sendResetPassword?: SendResetPassword;
  /** After any reset (our page or the raw API): every session of the user was just revoked. */
  onPasswordReset: (data: { user: { id: string } }) => Promise<void>;
}

type Call = (path: string, body: object, clientIp: string) => Promise<AuthResult>;

/** The reset flow as the /auth/forgot and /auth/reset pages run it, through better-auth's endpoints. */
export class PasswordReset {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly call: Call,
    private readonly signIn: (email: string, password: string, clientIp: string) => Promise<AuthResult>,
    private readonly answerFloorMs = ANSWER_FLOOR_MS,
  ) {}

  /** Asks for a reset link; the same answer, after the same time, whether the account exists or not. */
  async request(email: string, clientIp: string): Promise<{ ok: true; message: string } | { ok: false; status: number; message: string }> {
    const result = await this.evenly(() => this.call("/request-password-reset", { email }, clientIp));
    return result.ok ? { ok: true, message: RESET_REQUESTED } : result;
  }

  /** Runs `work` and answers no sooner than the floor after it started, so its duration tells nothing. */
  async evenly<T>(work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const result = await work();
    const wait = started + this.answerFloorMs - Date.now();
    if (wait > 0) await delay(wait);
    return result;
  }

  /** Whether the link's token can still be used (unused and not expired). */
  async check(token: string): Promise<{ ok: true } | { ok: false; message: string }> {
    return (await this.holder(token)) ? { ok: true } : { ok: false, message: RESET_LINK_INVALID };
  }

  /**
   * Sets the new password (8 to 128 characters), revokes every session of the user, and signs
   * this browser in with a new one. A used or expired link gets RESET_LINK_INVALID.
   */
  async reset(token: string, newPassword: string, clientIp: string): Promise<AuthResult> {
    const holder = await this.holder(token);
    if (!holder) return { ok: false, status: 400, message: RESET_LINK_INVALID };
    const result = await this.call("/reset-password", { token, newPassword }, clientIp);
    if (!result.ok) return /token/i.test(result.message) ? { ok: false, status: 400, message: RESET_LINK_INVALID } : result;
    // better-auth has revoked every session of the user (onPasswordReset marks their cached cookies); this browser gets a new one.
    return this.signIn(holder.email, newPassword, clientIp);
  }

  /** The user a live reset token belongs to; null for an unknown, used or expired one. */
  private async holder(token: string): Promise<{ userId: string; email: string } | null> {
    if (!token || token.length > 200) return null;
    const { rows } = await sql<{ userId: string; email: string; expiresAt: string | number | Date }>`
      select u.id as "userId", u.email as email, v."expiresAt" as "expiresAt"
      from verification v join "user" u on u.id = v.value
      where v.identifier = ${`reset-password:${token}`}`.execute(this.db);
    const row = rows[0];
    return row && new Date(row.expiresAt).getTime() > Date.now() ? { userId: row.userId, email: row.email } : null;
  }
}
