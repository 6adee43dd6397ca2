import type { Kysely } from "kysely";
import type { Schema } from "../../server/db/schema.ts";
import { verificationLink } from "../../server/mail/templates/email-verification.ts";
import { TEST_ORIGIN, type testApp } from "./app.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

/**
 * Opens the link of the newest confirmation mail to `email` still in the outbox (the worker has not
 * sent it yet, so its token is there), as its recipient would: the address is then confirmed.
 */
export async function confirmEmail(app: App, db: Kysely<Schema>, email: string): Promise<void> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("payload")
    .where("kind", "=", "email_verification")
    .where("recipient", "=", email.toLowerCase())
    .orderBy("created", "desc")
    .executeTakeFirst();
  if (!row) throw new Error(`no confirmation mail to ${email} in the outbox`);
  const link = new URL(verificationLink(TEST_ORIGIN, (JSON.parse(row.payload) as { token: string }).token));
  const opened = await app.request(`${link.pathname}${link.search}`);
  if (opened.status !== 302 || opened.headers.get("location") !== "/") throw new Error(`confirming ${email} answered ${opened.status} ${opened.headers.get("location")}`);
}
