import type { Kysely } from "kysely";
import type { MiddlewareHandler } from "hono";
import type { Schema } from "../db/schema.ts";
import type { AppEnv } from "../http/env.ts";
import { noApiEndpoint } from "../http-error.ts";
import { isAdmin } from "./staff.ts";

/** The back office's addresses: its pages (and their `.data` requests) and its API. */
const ADMIN_PATH = /^\/(?:api\/)?admin(?:\/|\.data$|$)/;

export const isAdminPath = (path: string): boolean => ADMIN_PATH.test(path);

/**
 * The one role check (DESIGN.md "Roles"): on a back-office address, the signed-in user's role is
 * read from the database (a revoked admin is out at once, whatever their session cached), and only
 * an admin gets `staff` set. Anyone else gets the 404 of an address that does not exist: the API
 * answers it here; the pages get no `admin` in their load context, and every admin route answers
 * 404 without it (app/admin/context.ts), so the back office never reveals itself.
 */
export function adminGate(db: Kysely<Schema>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isAdminPath(c.req.path)) return next();
    const user = c.get("user");
    if (user && (await isAdmin(db, user.uid))) {
      c.set("staff", user);
      await next();
      c.header("Cache-Control", "private, no-store");
      return;
    }
    if (c.req.path.startsWith("/api/")) throw noApiEndpoint(c.req.method, c.req.path);
    return next();
  };
}
