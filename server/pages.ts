import type { Handler } from "hono";
import { withoutAdmin } from "./admin/gate.ts";
import type { Config } from "./config.ts";
import type { AppEnv } from "./http/env.ts";
import { databaseAway, databaseIsAway } from "./http/errors.ts";
import { PageCache } from "./http/page-cache.ts";
import { AffectedPages } from "./catalogue/affected-pages.ts";
import { loadContextFactory, type SsrHandler } from "./load-context.ts";
import type { Logger } from "./log.ts";
import type { Services } from "./services.ts";

const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Anonymous pages are the same for everyone (the basket lives in the browser): rendered once per
 * address, until the catalogue changes. Null when pages are not cached (development, or
 * PAGE_CACHE_ENTRIES=0). The pages fill it; the shared-answers step (http/shared-answers.ts) also
 * answers its hits.
 */
export function anonymousPageCache(config: Pick<Config, "NODE_ENV" | "PAGE_CACHE_ENTRIES">, services: Services): PageCache | null {
  if (config.PAGE_CACHE_ENTRIES <= 0 || config.NODE_ENV === "development") return null;
  const pageCache = new PageCache({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: PAGE_CACHE_BYTES, telemetry: services.metrics });
  // Issue 22: only the pages that show a changed product go (a sale must not empty the cache).
  const affected = new AffectedPages();
  void services.catalogue.list().then(
    (products) => affected.remember(products),
    () => {},
  );
  services.catalogue.onChange((change) => {
    void services.catalogue.list().then(
      (products) => pageCache.drop(affected.of(change, products)),
      () => pageCache.clear(),
    );
  });
  return pageCache;
}

/**
 * Pages: React Router's request handler with the load context. Anonymous pages come from and go to
 * `pageCache`; never for a session, a write or an error page.
 */
export function pages(
  ssr: SsrHandler,
  { config, log, services, pageCache }: { config: Pick<Config, "PUBLIC_URL">; log: Logger; services: Services; pageCache: PageCache | null },
): Handler<AppEnv> {
  const { auth, database } = services;
  const createLoadContext = loadContextFactory(services, log, config.PUBLIC_URL);
  return async (c) => {
    const nonce = c.get("cspNonce");
    const url = new URL(c.req.url);
    const cacheKey =
      pageCache && c.req.method === "GET" && !url.pathname.endsWith(".data") && !auth.hasSessionCookie(c.req.raw.headers) ? url.pathname + url.search : null;
    const hit = cacheKey && pageCache?.get(cacheKey, nonce, c.req.header("accept-encoding"));
    if (hit) return hit;
    // Someone who may not see the back office asked for it: they get what any unknown address gives.
    const request = c.get("outsider") ? withoutAdmin(c.req.raw) : c.req.raw;
    const response = await ssr(atBrowserOrigin(request), createLoadContext(c));
    // A page that failed because the database is away says so with 503 (and its error page).
    if (response.status >= 500 && (await databaseIsAway(database))) {
      return databaseAway(new Response(response.body, { status: 503, headers: response.headers }));
    }
    return cacheKey && pageCache ? pageCache.put(cacheKey, nonce, response) : response;
  };
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
