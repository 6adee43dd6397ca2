import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { apiRoutes } from "./api.ts";
import { sessionMiddleware } from "./auth/session-middleware.ts";
import { PreparedAnswers } from "./catalogue/prepared-answers.ts";
import { catalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import { clientAddressStep } from "./http/client.ts";
import { bodyLimitStep } from "./http/body-limit.ts";
import { compression } from "./http/compression.ts";
import { contentSecurityPolicy } from "./http/csp.ts";
import type { AppEnv } from "./http/env.ts";
import { errorHandler } from "./http/error-handler.ts";
import { sameOriginWrites } from "./http/origin-check.ts";
import { isFilePath } from "./http/paths.ts";
import { retryAfterOn429 } from "./http/retry-after.ts";
import { securityHeaderSet, securityHeaders } from "./http/security-headers.ts";
import { withSharedAnswers } from "./http/shared-answers.ts";
import { withSmallBodies } from "./http/body-read-ahead.ts";
import { staticFiles } from "./http/static-files.ts";
import { mountImages } from "./images/routes.ts";
import type { PageRenderer } from "./load-context.ts";
import type { Logger } from "./log.ts";
import type { PageRoutes } from "./observability/page-routes.ts";
import { requestObserver } from "./observability/request-observer.ts";
import { pageCaches } from "./page-cache/index.ts";
import { pages } from "./pages.ts";
import type { Services } from "./services.ts";

export interface AppDeps {
  config: Pick<Config, "NODE_ENV" | "PUBLIC_URL" | "TRUSTED_ORIGINS" | "TRUST_PROXY" | "PAGE_CACHE_ENTRIES" | "INSTANCE_NAME" | "AUTH_RATE_LIMIT_WINDOW_SECONDS">;
  log: Logger;
  services: Services;
  /** React Router's request handler and route table; absent in API-only tests. */
  ssr?: PageRenderer;
  /** The built client assets (build/client); absent in API-only tests and in development. */
  clientDir?: string;
  /** Page addresses to route patterns (from the build), for the request metrics and logs. */
  pageRoutes?: PageRoutes;
}

/** The HTTP layer, as node:http runs it and as the tests ask it. */
export interface Pipeline {
  /** The Hono app: every step (app.request in tests). */
  app: Hono<AppEnv>;
  /**
   * node:http's listener: the shared-answers step in front of the app (http/shared-answers.ts).
   * Made on demand: @hono/node-server's listener puts its own Request and Response in the globals,
   * which tests that only call app.request do not want.
   */
  listener(): RequestListener;
}

/**
 * The HTTP layer (docs/ARCHITECTURE.md). One request passes each step once, top to bottom; each
 * step is a module of its own.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  return createPipeline(deps).app;
}

export function createPipeline({ config, log, services, ssr, clientDir, pageRoutes }: AppDeps): Pipeline {
  const development = config.NODE_ENV === "development";
  // What the shared-answers step and the Hono steps share: one of each.
  const observer = requestObserver({ log, metrics: services.metrics, tracing: services.tracing, trustProxy: config.TRUST_PROXY, pageRoutes });
  const security = securityHeaderSet({
    csp: contentSecurityPolicy({ development, checkout: services.checkout }),
    hsts: config.PUBLIC_URL.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
  });
  const catalogueAnswers = new PreparedAnswers();
  const caches = ssr ? pageCaches(config, services, () => ssr.routes()) : null;

  const app = new Hono<AppEnv>();
  app.onError(errorHandler(services.database, log));

  app.use("*", observer.step);
  app.use("*", retryAfterOn429(config.AUTH_RATE_LIMIT_WINDOW_SECONDS));
  app.use("*", securityHeaders(security));
  // The public catalogue API (FakeStore's shape): the same read-only, precompressed data for
  // everyone, so it answers ahead of every step that concerns a visitor, and its public answers
  // never carry a session's cookies. A method it does not take falls through to the API's 405.
  app.route("/api/catalogue", catalogueRoutes(services.catalogue, config.PUBLIC_URL, catalogueAnswers));
  app.use("*", compression());
  app.use("*", clientAddressStep(config.TRUST_PROXY));
  app.use("*", sameOriginWrites(config.TRUSTED_ORIGINS));
  app.use("*", bodyLimitStep());
  app.use("*", sessionMiddleware(services.auth));
  app.route("/api", apiRoutes(services, { instance: `${config.INSTANCE_NAME}:${process.pid}`, routes: () => app.routes }));
  mountImages(app, services.catalogue.images);
  // Built files, precompressed, immutable under assets/; only paths that name a file touch the disk.
  if (clientDir) {
    const files = staticFiles(clientDir);
    app.use("*", (c, next) => (isFilePath(c.req.path) ? files(c, next) : next()));
  }
  if (ssr) app.all("*", pages(ssr, { config, log, services, caches }));

  const listener = () =>
    withSharedAnswers(
      {
        log,
        observer,
        security,
        catalogue: { list: () => services.catalogue.list(), answers: catalogueAnswers },
        pages: caches ? { cache: caches.anonymous, hasSessionCookie: (headers) => services.auth.hasSessionCookie(headers) } : undefined,
        shells: caches ? { personal: caches.personal, fromShell: caches.fromShell, knownUser: (cookies) => services.auth.knownUser(cookies) } : undefined,
      },
      withSmallBodies(getRequestListener(app.fetch)),
    );
  return { app, listener };
}
