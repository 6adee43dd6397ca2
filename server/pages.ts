import type { Handler } from "hono";
import { asksForBackOffice, type BackOfficeRoutes, backOfficeRoutes, type BuildRoutes, verifiedStaff, withoutBackOffice } from "./admin/gate.ts";
import type { SessionUser } from "./auth/auth.ts";
import type { Config } from "./config.ts";
import type { AppEnv } from "./http/env.ts";
import { databaseAway, databaseIsAway } from "./http/errors.ts";
import { PageCache } from "./http/page-cache.ts";
import { withOwnSignal } from "./http/page-request.ts";
import { placeholderUser } from "./http/personal-shell.ts";
import { PersonalShells } from "./http/personal-shells.ts";
import { AffectedPages } from "./catalogue/affected-pages.ts";
import { loadContextFactory, type PageRenderer } from "./load-context.ts";
import type { Logger } from "./log.ts";
import type { Services } from "./services.ts";

const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
const SHELL_BYTES = 16 * 1024 * 1024;

/**
 * The pages a signed-in visitor gets from a personal shell: those whose loaders and actions read
 * nothing of the user or the session but what the root loader returns (the catalogue's pages, the
 * cart, the language page), so the page differs from the anonymous one only where the root
 * loader's user shows. An explicit list, not a rule guessed from the routes: a page added later
 * (orders, payment, the back office, the account pages, anything that reads the user) is rendered
 * in full for every request until someone checks its loader and adds it here. Exact, lower-case
 * paths (React Router also matches "/CART/"; those render in full); never React Router's data
 * requests (/products/1.data).
 */
const SHELL_PAGES = /^\/(?:|cart|language|search|products\/[^/]+|results\/[^/]+)$/;
export const fromShell = (pathname: string): boolean => SHELL_PAGES.test(pathname) && !pathname.endsWith(".data");

/**
/** The pages kept in memory: anonymous pages, and the personal shells of signed-in visitors' pages. */
export interface PageCaches {
  anonymous: PageCache;
  personal: PersonalShells;
}

/**
 * Anonymous pages are the same for everyone (the basket lives in the browser): rendered once per
 * address, until the catalogue changes; the shared-answers step (http/shared-answers.ts) also
 * answers their hits. Signed-in visitors get the pages of SHELL_PAGES from personal shells
 * (http/personal-shells.ts): the page rendered once per address and kind of user for a placeholder
 * user, filled with theirs per response. Both drop exactly the pages a catalogue change touches.
 * Null when pages are not cached (development, or PAGE_CACHE_ENTRIES=0). `shells` is given by
 * tests that look at what is kept.
 */
export function pageCaches(config: Pick<Config, "NODE_ENV" | "PAGE_CACHE_ENTRIES">, services: Services, shells?: PersonalShells): PageCaches | null {
  if (config.PAGE_CACHE_ENTRIES <= 0 || config.NODE_ENV === "development") return null;
  const anonymous = new PageCache({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: PAGE_CACHE_BYTES, telemetry: services.metrics });
  const personal = shells ?? new PersonalShells({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: SHELL_BYTES });
  // Only the pages that show a changed product go (a sale must not empty the cache).
  const affected = new AffectedPages();
  void services.catalogue.list().then(
    (products) => affected.remember(products),
    () => {},
  );
  services.catalogue.onChange((change) => {
    void services.catalogue.list().then(
      (products) => {
        const pages = affected.of(change, products);
        anonymous.drop(pages);
        personal.drop(pages);
      },
      () => {
        anonymous.clear();
        personal.clear();
      },
    );
  });
  return { anonymous, personal };
}

/**
 * Who may see the page asked for: on a back-office route (gate.ts), the admin, or nobody (an
 * outsider, who gets what an unknown address gives); anywhere else, everyone.
 */
type PageAccess = { backOffice: false } | { backOffice: true; staff: SessionUser | null };

/**
 * Pages: React Router's request handler with the load context, from and into `caches` where a page
 * may be kept; never for a write, an error page, a back-office page or an address with a token.
 */
export function pages(
  renderer: PageRenderer,
  { config, log, services, caches }: { config: Pick<Config, "PUBLIC_URL">; log: Logger; services: Services; caches: PageCaches | null },
): Handler<AppEnv> {
  const { auth, database } = services;
  const ssr = renderer.handle;
  const createLoadContext = loadContextFactory(services, log, config.PUBLIC_URL);
  const pageCache = caches?.anonymous;
  const personal = caches?.personal;
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
    if (user && personal && c.req.method === "GET" && fromShell(url.pathname)) {
      const filled = await personal.page(url.pathname + url.search, user, nonce, c.req.header("accept-encoding"), async () => ({
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
