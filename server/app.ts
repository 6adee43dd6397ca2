import { Hono } from "hono";
import { apiRoutes } from "./api.ts";
import { adminGate } from "./admin/gate.ts";
import { sessionMiddleware } from "./auth/session-middleware.ts";
import { catalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import { clientAddressStep } from "./http/client.ts";
import { bodyLimitStep } from "./http/body-limit.ts";
import { compression } from "./http/compression.ts";
import { contentSecurityPolicy } from "./http/csp.ts";
import type { AppEnv } from "./http/env.ts";
import { errorHandler } from "./http/errors.ts";
import { sameOriginWrites } from "./http/origin-check.ts";
import { isFilePath } from "./http/paths.ts";
import { retryAfterOn429 } from "./http/retry-after.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { staticFiles } from "./http/static-files.ts";
import { mountImages } from "./images/routes.ts";
import type { SsrHandler } from "./load-context.ts";
import type { Logger } from "./log.ts";
import type { PageRoutes } from "./observability/page-routes.ts";
import { observeRequests } from "./observability/request-observer.ts";
import { pages } from "./pages.ts";
import type { Services } from "./services.ts";

export interface AppDeps {
  config: Pick<Config, "NODE_ENV" | "PUBLIC_URL" | "TRUSTED_ORIGINS" | "TRUST_PROXY" | "PAGE_CACHE_ENTRIES" | "INSTANCE_NAME" | "AUTH_RATE_LIMIT_WINDOW_SECONDS">;
  log: Logger;
  services: Services;
  /** React Router's request handler; absent in API-only tests. */
  ssr?: SsrHandler;
  /** The built client assets (build/client); absent in API-only tests and in development. */
  clientDir?: string;
  /** Page addresses to route patterns (from the build), for the request metrics and logs. */
  pageRoutes?: PageRoutes;
}

/**
 * The HTTP layer (docs/ARCHITECTURE.md). One request passes each step once, top to bottom; each
 * step is a module of its own.
 */
export function createApp({ config, log, services, ssr, clientDir, pageRoutes }: AppDeps) {
  const development = config.NODE_ENV === "development";
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(services.database, log));

  app.use("*", observeRequests({ log, metrics: services.metrics, tracing: services.tracing, trustProxy: config.TRUST_PROXY, pageRoutes }));
  app.use("*", retryAfterOn429(config.AUTH_RATE_LIMIT_WINDOW_SECONDS));
  app.use("*", securityHeaders({
    csp: contentSecurityPolicy({ development, checkout: services.checkout }),
    hsts: config.PUBLIC_URL.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
  }));
  // The public catalogue API (FakeStore's shape): the same read-only, precompressed data for
  // everyone, so it answers ahead of every step that concerns a visitor, and its public answers
  // never carry a session's cookies. A method it does not take falls through to the API's 405.
  app.route("/api/catalogue", catalogueRoutes(services.catalogue, config.PUBLIC_URL));
  app.use("*", compression());
  app.use("*", clientAddressStep(config.TRUST_PROXY));
  app.use("*", sameOriginWrites(config.TRUSTED_ORIGINS));
  app.use("*", bodyLimitStep());
  app.use("*", sessionMiddleware(services.auth));
  app.use("*", adminGate(services.database.db));
  app.route("/api", apiRoutes(services, { instance: `${config.INSTANCE_NAME}:${process.pid}`, routes: () => app.routes }));
  mountImages(app, services.catalogue.images);
  // Built files, precompressed, immutable under assets/; only paths that name a file touch the disk.
  if (clientDir) {
    const files = staticFiles(clientDir);
    app.use("*", (c, next) => (isFilePath(c.req.path) ? files(c, next) : next()));
  }
  if (ssr) app.all("*", pages(ssr, { config, log, services }));
  return app;
}
