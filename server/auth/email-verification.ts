import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { hashKey } from "../mail/keys.ts";
import { countRecent, enqueueMail } from "../mail/outbox.ts";

/** How long a confirmation link works (better-auth's emailVerification.expiresIn, in seconds). */
export const VERIFY_TOKEN_SECONDS = 60 * 60;
/** Confirmation mails one address gets per window (sign-up and asking again alike); more are not written. */
const VERIFY_MAILS_PER_ADDRESS = 3;
const VERIFY_MAIL_WINDOW_MS = 60 * 60 * 1000;

/** Writes a confirmation mail (verificationMailWriter). */
export type SendVerificationEmail = (data: { user: { id: string; email: string }; token: string }) => Promise<void>;

/**
 * better-auth's `sendVerificationEmail`: writes "Confirm your Storefront email address" to the
 * outbox and wakes the worker. The link is made from the token when the mail is rendered, so a
 * callback URL a client passed to sign-up never reaches the mail. Asking again
 * (/api/auth/send-verification-email) is answered the same whether or not a mail was written:
 * past the per-address share, none is, so nobody can fill someone's mailbox with them.
 */
export function verificationMailWriter(db: Kysely<Schema>, log: Logger, wake: () => void, now: () => number = Date.now): SendVerificationEmail {
  return async ({ user, token }) => {
    const time = now();
    if ((await countRecent(db, "email_verification", user.email, time - VERIFY_MAIL_WINDOW_MS)) >= VERIFY_MAILS_PER_ADDRESS) {
      log.warn({ user: user.id }, "confirmation mail not sent: this address had its share of confirmation mails this hour");
      return;
    }
    await enqueueMail(db, {
      kind: "email_verification",
      key: hashKey(token),
      recipient: user.email,
      now: time,
      payload: { token, validMinutes: VERIFY_TOKEN_SECONDS / 60 },
    });
    wake();
  };
}
