import type { Kysely } from "kysely";
import type { MiddlewareHandler } from "hono";
import { matchRoutes } from "react-router";
import type { SessionUser } from "../auth/auth.ts";
import type { Schema } from "../db/schema.ts";
import type { AppEnv } from "../http/env.ts";
import { MANIFEST_PATH, memoByAddress } from "../routing/addresses.ts";
import { type BuildRoute, type BuildRoutes, routeTable } from "../routing/build-routes.ts";
import { noApiEndpoint } from "../http-error.ts";
import { isAdmin } from "./staff.ts";

/**
 * The back office's guard (staff only). It belongs to the routes, not to the text of an
 * address: the API's routes sit in one Hono sub-app whose first step is `staffOnly` (routes.ts), and
 * the pages are the routes under the admin layout, found with React Router's own matcher on the
 * build's route table, so every spelling the routers accept (`%61dmin`, `ADMIN`, a trailing slash,
 * `.data`) meets the guard. The role is read from the database on every request: a revoked admin is
 * out at once, whatever their session cached. The layout's loader (app/admin/guard.ts) is a second
 * lock on the same door.
 */

/** The Hono environment of the back office's API: the guard has verified `staff`. */
export type StaffEnv = { Bindings: AppEnv["Bindings"]; Variables: AppEnv["Variables"] & { staff: SessionUser } };

/** The signed-in user if they are an admin now, else null. */
export async function verifiedStaff(db: Kysely<Schema>, user: SessionUser | null): Promise<SessionUser | null> {
  return user !== null && (await isAdmin(db, user.uid)) ? user : null;
}

/**
 * The first step of every /api/admin route. Anyone but an admin gets the 404 of an address that
 * does not exist, for every method (a 405 would say the address exists).
 */
export function staffOnly(db: Kysely<Schema>): MiddlewareHandler<StaffEnv> {
  return async (c, next) => {
    const staff = await verifiedStaff(db, c.get("user"));
    if (!staff) throw noApiEndpoint(c.req.method, c.req.path);
    c.set("staff", staff);
    await next();
    c.header("Cache-Control", "private, no-store");
  };
}

/** The back office's layout route exports `handle = { backOffice: true }`: it and every route under it are guarded. */
const isBackOfficeRoot = (route: BuildRoute): boolean => (route.module?.handle as { backOffice?: unknown } | undefined)?.backOffice === true;

/** An address no route but the shop's "page not found" matches. */
const UNKNOWN_PAGE = "/__no-such-page";

/** Which routes are the back office's, and whether an address reaches one of them. */
export interface BackOfficeRoutes {
  /** The ids of the guarded routes: the layout whose handle says `backOffice: true`, and all below it. */
  ids: ReadonlySet<string>;
  /** Whether React Router would render a back-office route for this path (a data request's too). */
  reaches(pathname: string): boolean;
}

export function backOfficeRoutes(routes: BuildRoutes): BackOfficeRoutes {
  const all = Object.values(routes).filter((route): route is BuildRoute => route !== undefined);
  const ids = new Set<string>();
  const guarded = (route: BuildRoute): boolean => isBackOfficeRoot(route) || (route.parentId !== undefined && routes[route.parentId] !== undefined && guarded(routes[route.parentId]!));
  for (const route of all) if (guarded(route)) ids.add(route.id);

  const table = routeTable(routes);

  const lookup = (pathname: string): boolean => {
    // As React Router reads a data request: /x.data is /x, /_root.data is the home page.
    const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    return matchRoutes(table, path)?.some((match) => match.route.id !== undefined && ids.has(match.route.id)) ?? false;
  };

  return { ids, reaches: memoByAddress(lookup) };
}

/** The paths route discovery asks about (`?paths=/a,/b`), each with its leading slash, as React Router reads them. */
const discoveryPaths = (url: URL): string[] =>
  (url.searchParams.get("paths") ?? "")
    .split(",")
    .filter(Boolean)
    .map((path) => (path.startsWith("/") ? path : `/${path}`));

/** Whether a page request would show the back office: one of its routes, or route discovery asked about one. */
export function asksForBackOffice(url: URL, backOffice: BackOfficeRoutes): boolean {
  if (url.pathname === MANIFEST_PATH) return discoveryPaths(url).some((path) => backOffice.reaches(path));
  return backOffice.reaches(url.pathname);
}

/**
 * The request a page renders for someone who may not see the back office: an address that does
 * not exist (its `.data` twin for a data request), or route discovery without the back office's
 * paths. So the page, its hydration data, its headers and its route manifest are those of any
 * unknown address.
 */
export function withoutBackOffice(request: Request, backOffice: BackOfficeRoutes): Request {
  const url = new URL(request.url);
  if (url.pathname === MANIFEST_PATH) {
    url.searchParams.set("paths", discoveryPaths(url).filter((path) => !backOffice.reaches(path)).join(","));
  } else {
    url.pathname = url.pathname.endsWith(".data") ? `${UNKNOWN_PAGE}.data` : UNKNOWN_PAGE;
  }
  return new Request(url, request);
}
