import type { Handler } from "hono";
import { asksForBackOffice, type BackOfficeRoutes, backOfficeRoutes, verifiedStaff, withoutBackOffice } from "./admin/gate.ts";
import type { SessionUser } from "./auth/auth.ts";
import type { Config } from "./config.ts";
import type { AppEnv } from "./http/env.ts";
import { databaseAway, databaseIsAway } from "./http/error-handler.ts";
import { withOwnSignal } from "./page-request.ts";
import type { BuildRoutes } from "./routing/build-routes.ts";
import { loadContextFactory, type PageRenderer } from "./load-context.ts";
import type { Logger } from "./log.ts";
import { type PageCaches, placeholderUser } from "./page-cache/index.ts";
import type { Services } from "./services.ts";

/**
 * Who may see the page asked for: on a back-office route (gate.ts), the admin, or nobody (an
 * outsider, who gets what an unknown address gives); anywhere else, everyone.
 */
type PageAccess = { backOffice: false } | { backOffice: true; staff: SessionUser | null };

/**
 * Pages: React Router's request handler with the load context, from and into `caches` where a page
 * may be kept; never for a write, an error page, a back-office page or an address with a token.
 * The back office's time zone and low-stock mark come from `config` when it has them (the
 * server's whole configuration does), else their defaults.
 */
export function pages(
  renderer: PageRenderer,
  { config, log, services, caches }: { config: Pick<Config, "PUBLIC_URL" | "SHOP_TIME_ZONE" | "LOW_STOCK_THRESHOLD">; log: Logger; services: Services; caches: PageCaches | null },
): Handler<AppEnv> {
  const { auth, database } = services;
  const ssr = renderer.handle;
  const { SHOP_TIME_ZONE, LOW_STOCK_THRESHOLD } = config;
  const createLoadContext = loadContextFactory(services, log, config.PUBLIC_URL, { SHOP_TIME_ZONE, LOW_STOCK_THRESHOLD });
  const pageCache = caches?.anonymous;
  // The guard's view of the route table, made again only when the table is another (development).
  const guards = new WeakMap<BuildRoutes, BackOfficeRoutes>();
  const backOffice = async (): Promise<BackOfficeRoutes> => {
    const routes = await renderer.routes();
    let guard = guards.get(routes);
    if (!guard) guards.set(routes, (guard = backOfficeRoutes(routes)));
    return guard;
  };
  const access = async (url: URL, user: SessionUser | null, routes: BackOfficeRoutes): Promise<PageAccess> =>
    asksForBackOffice(url, routes) ? { backOffice: true, staff: await verifiedStaff(database.db, user) } : { backOffice: false };

  return async (c) => {
    const nonce = c.get("cspNonce");
    const url = new URL(c.req.url);
    const user = c.get("user");
    // A page whose route declares `shell: true` (page-cache/shell-routes.ts) comes from the personal shell.
    if (user && caches && c.req.method === "GET" && (await caches.shells)(url.pathname)) {
      const filled = await caches.personal.page(url.pathname + url.search, user, nonce, c.req.header("accept-encoding"), async () => ({
        response: await ssr(withoutCredentials(c.req.raw), { ...createLoadContext(c), user: placeholderUser(user.role) }),
        nonce,
      }));
      if (filled) return filled;
    }
    // A link that carries a token (a password reset's) is that visitor's alone: never kept, never stored.
    const token = url.searchParams.has("token");
    const cacheKey =
      pageCache && !token && c.req.method === "GET" && !url.pathname.endsWith(".data") && !auth.hasSessionCookie(c.req.raw.headers) ? url.pathname + url.search : null;
    const hit = cacheKey && pageCache?.get(cacheKey, nonce, c.req.header("accept-encoding"));
    if (hit) return hit;
    const routes = await backOffice();
    const page = await access(url, user, routes);
    // Someone who may not see the back office asked for it: they get what any unknown address gives.
    const outsider = page.backOffice && !page.staff;
    const request = outsider ? withoutBackOffice(c.req.raw, routes) : withOwnSignal(c.req.raw, c.env?.outgoing);
    const response = await ssr(atBrowserOrigin(request), createLoadContext(c, page.backOffice ? page.staff : null));
    // A page that failed because the database is away says so with 503 (and its error page).
    if (response.status >= 500 && (await databaseIsAway(database))) {
      return databaseAway(new Response(response.body, { status: 503, headers: response.headers }));
    }
    if (token) response.headers.set("Cache-Control", "no-store");
    // The back office is the admin's alone, its route discovery too (otherwise immutable).
    else if (page.backOffice && page.staff) response.headers.set("Cache-Control", "private, no-store");
    // A page for a signed-in visitor is theirs alone: no shared cache (nor the browser's) keeps it.
    else if (user && !response.headers.has("cache-control")) response.headers.set("Cache-Control", "private, no-store");
    return cacheKey && pageCache && !page.backOffice ? pageCache.put(cacheKey, nonce, response) : response;
  };
}

/** The request as anyone's: a shell's render sees no cookie or credential of the visitor it is rendered for. */
function withoutCredentials(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete("cookie");
  headers.delete("authorization");
  return new Request(request.url, { method: "GET", headers, signal: request.signal });
}

/**
 * Behind a proxy (TLS, another port) the URL this process sees is not the one the browser used,
 * and React Router refuses an action whose Origin differs from the request's URL. A write's Origin
 * has already passed sameOriginWrites (it is one of ours), so the page gets the request at it.
 */
function atBrowserOrigin(request: Request): Request {
  const origin = request.headers.get("origin");
  if (!origin || request.method === "GET" || request.method === "HEAD") return request;
  const url = new URL(request.url);
  return url.origin === origin ? request : new Request(new URL(`${url.pathname}${url.search}`, origin), request);
}
