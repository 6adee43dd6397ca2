import { data } from "react-router";
import type { AdminContext } from "../../server/admin/context.ts";

/**
 * Every back-office loader and action starts here: the server's admin gate hands `admin` only to a
 * verified admin; anyone else gets the shop's ordinary 404 page, as for an address that does not
 * exist.
 */
export function requireAdmin(context: { admin: AdminContext | null }): AdminContext {
  if (!context.admin) throw data(null, { status: 404 });
  return context.admin;
}
