import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { type SendTokenMail, tokenMailWriter } from "./token-mail.ts";

/** How long a confirmation link works (better-auth's emailVerification.expiresIn, in seconds). */
export const VERIFY_TOKEN_SECONDS = 60 * 60;

export type SendVerificationEmail = SendTokenMail;

/**
 * better-auth's `sendVerificationEmail`: "Confirm your Storefront email address" in the outbox. The
 * link is made from the token alone when the mail is rendered, so a callback URL a client passed
 * to sign-up never reaches the mail. Asking again (/api/auth/send-verification-email) is answered
 * the same whether or not a mail was written.
 */
export const verificationMailWriter = (db: Kysely<Schema>, log: Logger, wake: () => void): SendVerificationEmail =>
  tokenMailWriter("email_verification", VERIFY_TOKEN_SECONDS, { db, log, wake });
