import type { Kysely } from "kysely";
import type { MiddlewareHandler } from "hono";
import type { Schema } from "../db/schema.ts";
import type { AppEnv } from "../http/env.ts";
import { noApiEndpoint } from "../http-error.ts";
import { isAdmin } from "./staff.ts";

/** The back office's addresses: its pages (and their `.data` requests) and its API. */
const ADMIN_PATH = /^\/(?:api\/)?admin(?:\/|\.data$|$)/;
/** React Router's route discovery: the browser asks it for the routes of the paths it may visit. */
const MANIFEST_PATH = "/__manifest";
/** An address no route but the shop's "page not found" matches. */
const UNKNOWN_PAGE = "/__no-such-page";

export const isAdminPath = (path: string): boolean => ADMIN_PATH.test(path);

/** The paths route discovery asks about (`?paths=/a,/b`), each with its leading slash. */
const discoveryPaths = (url: URL): string[] =>
  (url.searchParams.get("paths") ?? "")
    .split(",")
    .filter(Boolean)
    .map((path) => (path.startsWith("/") ? path : `/${path}`));

/** Whether a request would show the back office: one of its addresses, or route discovery asked about one. */
function asksForAdmin(url: URL): boolean {
  if (url.pathname === MANIFEST_PATH) return discoveryPaths(url).some(isAdminPath);
  return isAdminPath(url.pathname);
}

/**
 * The request a page renders for someone who may not see the back office: an address that does
 * not exist (its `.data` twin for a data request), or route discovery without the back office's
 * paths. So the page, its hydration data and its route manifest are those of any unknown address.
 */
export function withoutAdmin(request: Request): Request {
  const url = new URL(request.url);
  if (url.pathname === MANIFEST_PATH) {
    url.searchParams.set("paths", discoveryPaths(url).filter((path) => !isAdminPath(path)).join(","));
  } else {
    url.pathname = url.pathname.endsWith(".data") ? `${UNKNOWN_PAGE}.data` : UNKNOWN_PAGE;
  }
  return new Request(url, request);
}

/**
 * The one role check (DESIGN.md "Roles"): on a back-office address, the signed-in user's role is
 * read from the database (a revoked admin is out at once, whatever their session cached), and only
 * an admin gets `staff` set. Anyone else gets the 404 of an address that does not exist: the API
 * answers it here; the pages render `withoutAdmin(request)` (marked `outsider`), so the back office
 * never reveals itself. Its loaders and actions also answer 404 without `admin` in their load
 * context (app/admin/guard.ts), a second lock on the same door.
 */
export function adminGate(db: Kysely<Schema>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!asksForAdmin(new URL(c.req.url))) return next();
    const user = c.get("user");
    const admin = user !== null && (await isAdmin(db, user.uid));
    if (admin) c.set("staff", user);
    else if (c.req.path.startsWith("/api/")) throw noApiEndpoint(c.req.method, c.req.path);
    else c.set("outsider", true);
    await next();
    // The answer depends on who asked: no shared cache may keep it (route discovery's is otherwise immutable).
    c.header("Cache-Control", "private, no-store");
  };
}
