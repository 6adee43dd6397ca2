import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { hashKey } from "../mail/keys.ts";
import { countRecent, enqueueMail } from "../mail/outbox.ts";

/** Mails of one kind one address gets per window (asking again included); more are not written. */
const MAILS_PER_ADDRESS = 3;
const MAIL_WINDOW_MS = 60 * 60 * 1000;

/** better-auth's hook for a mail whose link carries its token (a reset link, an address confirmation). */
export type SendTokenMail = (data: { user: { id: string; email: string }; token: string }) => Promise<void>;

/**
 * Writes a `kind` mail carrying better-auth's token to the outbox and wakes the worker; the link is
 * made from the token when the mail is rendered. Past an address's share this window it writes
 * none, and the asker is told nothing different, so nobody can fill someone's mailbox with them.
 * It returns once the row is committed: a shopper told "we sent a link" has a mail on its way
 * whatever happens to this process.
 */
export function tokenMailWriter(
  kind: "password_reset" | "email_verification",
  validSeconds: number,
  { db, log, wake, now = Date.now }: { db: Kysely<Schema>; log: Logger; wake: () => void; now?: () => number },
): SendTokenMail {
  return async ({ user, token }) => {
    const time = now();
    if ((await countRecent(db, kind, user.email, time - MAIL_WINDOW_MS)) >= MAILS_PER_ADDRESS) {
      log.warn({ user: user.id, kind }, "mail not written: this address had its share of this kind of mail this hour");
      return;
    }
    await enqueueMail(db, { kind, key: hashKey(token), recipient: user.email, now: time, payload: { token, validMinutes: validSeconds / 60 } });
    wake();
  };
}
