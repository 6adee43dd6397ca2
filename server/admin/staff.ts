import type { Kysely } from "kysely";
import { roleOf } from "../auth/staff.ts";
import type { Schema } from "../db/schema.ts";

/** The role as the page cache reads it; the rules are in auth/staff.ts. */
export type { Role } from "../auth/staff.ts";

/** Whether this account is an admin now, read from the database (not from a session's cached copy). */
export async function isAdmin(db: Kysely<Schema>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("role").where("id", "=", userId).executeTakeFirst();
  return roleOf(row?.role) === "admin";
}
