import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { CLIENT_IP_HEADER } from "./auth/auth.ts";
import { EmbeddedCatalogue, PRODUCT_IMAGE_PATH } from "./catalogue/embedded.ts";
import { catalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import { allowedMethods } from "./http/allowed-methods.ts";
import { clientAddress } from "./http/client.ts";
import { compression } from "./http/compression.ts";
import type { AppEnv } from "./http/env.ts";
import { jsonResponse } from "./http/json-response.ts";
import { sameOriginWrites } from "./http/origin-check.ts";
import { PageCache } from "./http/page-cache.ts";
import { isFilePath } from "./http/paths.ts";
import { NONCE, securityHeaders } from "./http/security-headers.ts";
import { staticFiles } from "./http/static-files.ts";
import { HttpError } from "./http-error.ts";
import { imageRoutes } from "./images/routes.ts";
import { loadContextFactory, type SsrHandler } from "./load-context.ts";
import { healthRoutes } from "./observability/health.ts";
import type { PageRoutes } from "./observability/page-routes.ts";
import { observeRequests } from "./observability/request-observer.ts";
import { orderRoutes } from "./orders/routes.ts";
import { paymentRoutes } from "./payments/routes.ts";
import type { Logger } from "./log.ts";
import { searchRoutes } from "./search/routes.ts";
import type { Services } from "./services.ts";

export interface AppDeps {
  config: Pick<Config, "NODE_ENV" | "PUBLIC_URL" | "TRUSTED_ORIGINS" | "TRUST_PROXY" | "PAGE_CACHE_ENTRIES">;
  log: Logger;
  services: Services;
  /** React Router's request handler; absent in API-only tests. */
  ssr?: SsrHandler;
  /** The built client assets (build/client); absent in API-only tests and in development. */
  clientDir?: string;
  /** Page addresses to route patterns (from the build), for the request metrics and logs. */
  pageRoutes?: PageRoutes;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const DATABASE_CHECK_MS = 500;
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
const DATABASE_AWAY = "The shop's database is unavailable; try again shortly.";

function databaseAway(response: Response): Response {
  response.headers.set("Retry-After", "5");
  return response;
}

/**
 * The HTTP layer. One request passes each step once, top to bottom: request log, security
 * headers, compression, client address and the same-origin rule for writes, static files, the
 * session (looked up only when a session cookie came), /api, pages.
 */
export function createApp({ config, log, services, ssr, clientDir, pageRoutes }: AppDeps) {
  const { catalogue, database, auth } = services;
  const stripe = services.checkout.gateway === "stripe";
  const app = new Hono<AppEnv>();
  const development = config.NODE_ENV === "development";

  app.use("*", observeRequests({ log, metrics: services.metrics, tracing: services.tracing, trustProxy: config.TRUST_PROXY, pageRoutes }));

  app.use(
    "*",
    securityHeaders({
      csp: {
        defaultSrc: ["'self'"],
        // Vite's development server injects inline styles and scripts; production allows neither.
        // Stripe mode adds Stripe.js and its frames, and nothing else.
        scriptSrc: [...(development ? ["'self'", "'unsafe-inline'"] : ["'self'", NONCE]), ...(stripe ? ["https://js.stripe.com"] : [])],
        frameSrc: stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : ["'none'"],
        styleSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'", NONCE],
        // Remote product images come through our own image proxy (/images/remote), never from elsewhere.
        imgSrc: ["'self'", "data:"],
        connectSrc: [...(development ? ["'self'", "ws:"] : ["'self'"]), ...(stripe ? ["https://api.stripe.com"] : [])],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      hsts: config.PUBLIC_URL.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
    }),
  );

  // The public catalogue API (FakeStore's shape, for any site): the same read-only data for everyone,
  // already compressed, so it answers ahead of every step that concerns a visitor (compression,
  // client address, same-origin writes, session, body limit). Its `Cache-Control: public` answers
  // thereby never carry a session's renewed cookies. A method it does not take falls through to
  // the API's 405 below.
  app.route("/api/catalogue", catalogueRoutes(catalogue, config.PUBLIC_URL));

  app.use("*", compression());

  app.use("*", async (c, next) => {
    c.set("clientIp", clientAddress(c.env, () => c.req.header("x-forwarded-for"), config.TRUST_PROXY));
    await next();
  });
  app.use("*", sameOriginWrites(config.TRUSTED_ORIGINS));
  app.use("*", async (c, next) => {
    // Files never need the user; everything else learns it here, once.
    if (isFilePath(c.req.path)) {
      c.set("user", null);
      return next();
    }
    const { user, setCookies } = await auth.sessionUser(c.req.raw.headers);
    c.set("user", user);
    await next();
    // A renewed session cache or a dead session's clearing goes back with whatever answered.
    if (setCookies.length > 0 && !c.res.headers.getSetCookie().length) for (const cookie of setCookies) c.res.headers.append("Set-Cookie", cookie);
  });

  app.onError(async (error, c) => {
    if (error instanceof HttpError) return jsonResponse(c, { error: error.message }, error.status);
    // Whatever failed, while the database is away the honest answer is "try again shortly".
    if (!(await database.ping(DATABASE_CHECK_MS))) return databaseAway(jsonResponse(c, { error: DATABASE_AWAY }, 503));
    log.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return jsonResponse(c, { error: "Something went wrong on our side." }, 500);
  });

  // --- API ---------------------------------------------------------------------------------
  // No body is parsed here: each route validates its own, and better-auth gets the raw request.
  const api = new Hono<AppEnv>();
  const limitBody = bodyLimit({
    maxSize: 64 * 1024,
    onError: () => {
      throw new HttpError(413, "The request body is too large.");
    },
  });
  // GET and HEAD carry no body; asking would make the adapter build a full Request for nothing.
  api.use("*", (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next)));
  // better-auth's own routes. Our HTTP layer, not the client, says who the client is.
  api.on(["GET", "POST"], "/auth/*", (c) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, c.get("clientIp"));
    return auth.handler(new Request(c.req.raw, { headers }));
  });
  api.get("/health", async (c) => {
    const ok = await database.ping();
    // The catalogue's state is reported, never a reason to fail: the pages degrade without it.
    return jsonResponse(c, { status: ok ? "ok" : "unavailable", database: database.engine, catalogue: catalogue.health() }, ok ? 200 : 503, {
      "Cache-Control": "no-store",
    });
  });
  api.route("/health", healthRoutes(database, services.readiness));
  api.route("/payment", paymentRoutes(services.payments));
  api.route("/orders", orderRoutes(database.db, services.orderFeed));
  api.route("/search", searchRoutes(services.search));
  // No route matched: a path we have, asked with another method, is 405 (saying which it takes);
  // any other is 404, whatever the method.
  const allowed = allowedMethods(() => app.routes);
  api.all("*", (c) => {
    const methods = allowed(c.req.path);
    const message = `No API endpoint ${c.req.method} ${c.req.path}.`;
    if (methods.length === 0) throw new HttpError(404, message);
    return jsonResponse(c, { error: message }, 405, { Allow: methods.join(", ") });
  });
  app.route("/api", api);

  // --- Images and built assets -------------------------------------------------------------
  if (catalogue.imageProxy) app.route("/images/remote", imageRoutes(catalogue.imageProxy));
  if (catalogue instanceof EmbeddedCatalogue) {
    app.get(`${PRODUCT_IMAGE_PATH}:file`, (c) => {
      const image = catalogue.images.get(c.req.param("file"));
      if (!image) return c.text("Not found", 404);
      c.header("ETag", image.etag);
      if (c.req.header("if-none-match") === image.etag) return c.body(null, 304);
      return c.body(new Uint8Array(image.body), 200, {
        "Content-Type": "image/svg+xml",
        "Cache-Control": IMMUTABLE,
        // Public product pictures: other sites (FakeStore clients) may show and read them.
        "Cross-Origin-Resource-Policy": "cross-origin",
        "Access-Control-Allow-Origin": "*",
      });
    });
  }

  if (clientDir) {
    // Precompressed at build time, immutable under assets/ (server/http/static-files.ts).
    const files = staticFiles(clientDir);
    // Only paths that name a file touch the disk; pages go straight to the renderer.
    app.use("*", (c, next) => (isFilePath(c.req.path) ? files(c, next) : next()));
  }

  // --- Pages -------------------------------------------------------------------------------
  if (ssr) {
    const createLoadContext = loadContextFactory(services, log, config.PUBLIC_URL);
    // Anonymous pages are the same for everyone (the basket lives in the browser): rendered once
    // per address, until the catalogue changes. Never for a session, a write or an error page.
    const pageCache = config.PAGE_CACHE_ENTRIES > 0 ? new PageCache({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: PAGE_CACHE_BYTES, telemetry: services.metrics }) : null;
    catalogue.onChange(() => pageCache?.clear());
    app.all("*", async (c) => {
      const nonce = c.get("cspNonce");
      const url = new URL(c.req.url);
      const cacheKey =
        pageCache && !development && c.req.method === "GET" && !url.pathname.endsWith(".data") && !auth.hasSessionCookie(c.req.raw.headers)
          ? url.pathname + url.search
          : null;
      const hit = cacheKey && pageCache?.get(cacheKey, nonce, c.req.header("accept-encoding"));
      if (hit) return hit;
      const response = await ssr(atBrowserOrigin(c.req.raw), createLoadContext(c));
      // A page that failed because the database is away says so with 503 (and its error page).
      if (response.status >= 500 && !(await database.ping(DATABASE_CHECK_MS))) {
        return databaseAway(new Response(response.body, { status: 503, headers: response.headers }));
      }
      return cacheKey && pageCache ? pageCache.put(cacheKey, nonce, response) : response;
    });
  }

  return app;
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
