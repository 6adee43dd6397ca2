import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import { type Actor, appendAudit } from "./audit.ts";

/** Issue 23: every account is a `customer` unless made an `admin` (ADMIN_EMAILS or `npm run admin`). */
export const ROLES = ["customer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const roleOf = (value: unknown): Role => (value === "admin" ? "admin" : "customer");

/** Whether this account is an admin now, read from the database (not from a session's cached copy). */
export async function isAdmin(db: Kysely<Schema>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("role").where("id", "=", userId).executeTakeFirst();
  return roleOf(row?.role) === "admin";
}

/** ADMIN_EMAILS: makes the account with this (lower-cased) email an admin, if it is not yet one. */
export async function grantListedAdmin(db: Kysely<Schema>, email: string): Promise<void> {
  await db.updateTable("user").set({ role: "admin" }).where("email", "=", email).where((eb) => eb.or([eb("role", "is", null), eb("role", "<>", "admin")])).execute();
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
    await appendAudit(trx, { actor, action: role === "admin" ? "role.grant" : "role.revoke", target: `user:${email.toLowerCase()}`, before: { role: before }, after: { role } });
    return { ok: true, changed: true };
  });
}
