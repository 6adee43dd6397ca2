// The staff rules: an account's role, the ADMIN_EMAILS grants and role changes. The one module
// that writes the `user` table's role; auth (sessions, sign-in) and the back office both read it.

import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import { type Actor, appendAudit, type AuditWrite } from "../audit/log.ts";

/** Every account is a `customer` unless made an `admin` (ADMIN_EMAILS or `npm run admin`). */
export const ROLES = ["customer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const roleOf = (value: unknown): Role => (value === "admin" ? "admin" : "customer");

/** Who made an admin from the ADMIN_EMAILS list, as the audit log names it. */
export const ADMIN_EMAILS_ACTOR: Actor = { id: null, name: "ADMIN_EMAILS" };

/** The audit entry of a role change: `staff.grant` or `staff.revoke`, naming the address. */
const staffChange = (actor: Actor, email: string, before: Role, after: Role): AuditWrite => ({
  actor,
  action: after === "admin" ? "staff.grant" : "staff.revoke",
  target: `user:${email.toLowerCase()}`,
  before: { role: before },
  after: { role: after },
});

/**
 * ADMIN_EMAILS: makes every account with one of these emails an admin, once its owner has
 * confirmed the address (the link of the confirmation mail): whoever merely signs up with a
 * listed address stays a customer. Each grant is written to the audit log in the same
 * transaction; an account that is an admin already, or is made one by another instance at the
 * same moment, gets no entry. better-auth keeps every address lower-cased, as the list is.
 * Answers the emails made admins.
 */
export async function grantListedAdmins(db: Kysely<Schema>, emails: readonly string[]): Promise<string[]> {
  const listed = [...new Set(emails.map((email) => email.toLowerCase()))];
  if (listed.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const users = await trx.selectFrom("user").select(["id", "email", "role", "emailVerified"]).where("email", "in", listed).execute();
    const granted: string[] = [];
    for (const user of users) {
      // A boolean on PostgreSQL, 0 or 1 on SQLite.
      if (!user.emailVerified || roleOf(user.role) === "admin") continue;
      const updated = await trx
        .updateTable("user")
        .set({ role: "admin" })
        .where("id", "=", user.id)
        .where((eb) => eb.or([eb("role", "is", null), eb("role", "<>", "admin")]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) continue;
      await appendAudit(trx, staffChange(ADMIN_EMAILS_ACTOR, user.email, roleOf(user.role), "admin"));
      granted.push(user.email);
    }
    return granted;
  });
}

export type RoleChange = { ok: true; changed: boolean } | { ok: false; message: string };

/** Gives an account a role, with its audit entry in the same transaction; says whether anything changed. */
export async function setRole(db: Kysely<Schema>, email: string, role: Role, actor: Actor): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("user").select(["id", "role"]).where("email", "=", email.toLowerCase()).executeTakeFirst();
    if (!user) return { ok: false, message: `No account has the email ${email}.` };
    const before = roleOf(user.role);
    if (before === role) return { ok: true, changed: false };
    await trx.updateTable("user").set({ role }).where("id", "=", user.id).execute();
    await appendAudit(trx, staffChange(actor, email, before, role));
    return { ok: true, changed: true };
  });
}
