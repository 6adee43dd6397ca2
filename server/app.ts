import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono, type MiddlewareHandler } from "hono";
import { apiRoutes } from "./api.ts";
import { sessionInFront, sessionMiddleware } from "./auth/session-middleware.ts";
import { PreparedAnswers } from "./catalogue/prepared-answers.ts";
import { catalogueInFront, catalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import { clientAddressStep } from "./http/client.ts";
import { bodyLimitStep } from "./http/body-limit.ts";
import { compression } from "./http/compression.ts";
import { contentSecurityPolicy } from "./http/csp.ts";
import type { AppEnv } from "./http/env.ts";
import { errorHandler } from "./http/error-handler.ts";
import { sameOriginWrites } from "./http/origin-check.ts";
import { isFilePath } from "./routing/addresses.ts";
import { retryAfterOn429 } from "./http/retry-after.ts";
import { securityHeaderSet, securityHeaders, securityHeadersInFront } from "./http/security-headers.ts";
import { withSmallBodies } from "./http/body-read-ahead.ts";
import { staticFiles } from "./http/static-files.ts";
import { mountImages } from "./images/routes.ts";
import type { PageRenderer } from "./load-context.ts";
import type { Logger } from "./log.ts";
import type { PageRoutes } from "./observability/page-routes.ts";
import { requestObserver } from "./observability/request-observer.ts";
import { pageCaches, pagesInFront } from "./page-cache/index.ts";
import { pages } from "./pages.ts";
import { hasBody, readyAnswers } from "./pipeline/ready-answers.ts";
import type { Step } from "./pipeline/step.ts";
import type { Services } from "./services.ts";
import { sitemapsStep } from "./sitemaps/routes.ts";

export interface AppDeps {
  config: Pick<Config, "NODE_ENV" | "PUBLIC_URL" | "TRUSTED_ORIGINS" | "TRUST_PROXY" | "PAGE_CACHE_ENTRIES" | "INSTANCE_NAME" | "AUTH_RATE_LIMIT_WINDOW_SECONDS" | "SHOP_TIME_ZONE" | "LOW_STOCK_THRESHOLD">;
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
  /** The steps in their order, each with the handlers it put into the Hono app. */
  steps: ReadonlyArray<{ step: Step; handlers: readonly unknown[] }>;
  /**
   * node:http's listener: the steps' answers in front of the app (pipeline/ready-answers.ts), then
   * the app. Made on demand: @hono/node-server's listener puts its own Request and Response in the
   * globals, which tests that only call app.request do not want.
   */
  listener(): RequestListener;
}

/** The HTTP layer (docs/ARCHITECTURE.md "One request"): the pipeline's steps, in the Hono app and in front of it. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  return createPipeline(deps).app;
}

export function createPipeline(deps: AppDeps): Pipeline {
  const { services, log } = deps;
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(services.database, log));
  const steps = pipelineSteps(deps).map((step) => {
    const from = app.routes.length;
    step.hono(app);
    return { step, handlers: app.routes.slice(from).map((route) => route.handler) };
  });
  const listener = () =>
    readyAnswers(
      steps.map(({ step }) => step),
      withSmallBodies(getRequestListener(app.fetch)),
      log,
    );
  return { app, steps, listener };
}

/**
 * The pipeline: one request passes each step once, top to bottom, in the Hono app; in front of it
 * (on node:http) each step does what `inFront` says for the answers already made. Each step is a
 * module of its own.
 */
export function pipelineSteps({ config, log, services, ssr, clientDir, pageRoutes }: AppDeps): Step[] {
  const development = config.NODE_ENV === "development";
  const observer = requestObserver({ log, metrics: services.metrics, tracing: services.tracing, trustProxy: config.TRUST_PROXY, pageRoutes });
  const security = securityHeaderSet({
    csp: contentSecurityPolicy({ development, checkout: services.checkout }),
    hsts: config.PUBLIC_URL.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
  });
  const catalogueAnswers = new PreparedAnswers();
  const caches = ssr ? pageCaches(config, services, () => ssr.routes()) : null;
  const everyRequest = (handler: MiddlewareHandler<AppEnv>) => (app: Hono<AppEnv>) => void app.use("*", handler);
  const files = clientDir ? staticFiles(clientDir) : null;

  return [
    { name: "observe requests", hono: everyRequest(observer.step), inFront: observer.inFront },
    { name: "retry after 429", hono: everyRequest(retryAfterOn429(config.AUTH_RATE_LIMIT_WINDOW_SECONDS)), inFront: { idle: "an answer made already is never a 429" } },
    { name: "security headers", hono: everyRequest(securityHeaders(security)), inFront: securityHeadersInFront(security) },
    // The public catalogue API (FakeStore's shape): the same read-only, precompressed data for
    // everyone, so it answers ahead of every step that concerns a visitor, and its public answers
    // never carry a session's cookies. A method it does not take falls through to the API's 405.
    {
      name: "catalogue API",
      hono: (app) => void app.route("/api/catalogue", catalogueRoutes(services.catalogue, config.PUBLIC_URL, catalogueAnswers)),
      inFront: catalogueInFront(services.catalogue, catalogueAnswers),
    },
    { name: "compression", hono: everyRequest(compression()), inFront: { idle: "answers made already are kept in each encoding, and found in the one the request accepts" } },
    { name: "client address", hono: everyRequest(clientAddressStep(config.TRUST_PROXY)), inFront: { idle: "only the rate limits and routes behind it read the address" } },
    { name: "same-origin writes", hono: everyRequest(sameOriginWrites(config.TRUSTED_ORIGINS)), inFront: { admits: ({ req }) => req.method === "GET" || req.method === "HEAD" } },
    { name: "body limit", hono: everyRequest(bodyLimitStep()), inFront: { admits: ({ req }) => !hasBody(req) } },
    { name: "session", hono: everyRequest(sessionMiddleware(services.auth)), inFront: sessionInFront(services.auth) },
    {
      name: "API",
      hono: (app) => void app.route("/api", apiRoutes(services, { instance: `${config.INSTANCE_NAME}:${process.pid}`, routes: () => app.routes })),
      inFront: { idle: "the API's answers are made per request (the catalogue's, above, are made already)" },
    },
    { name: "images", hono: (app) => mountImages(app, services.catalogue.images), inFront: { idle: "images come from the image cache on disk" } },
    // Built files, precompressed, immutable under assets/; only paths that name a file touch the disk.
    {
      name: "files",
      hono: (app) => void (files && app.use("*", (c, next) => (isFilePath(c.req.path) ? files(c, next) : next()))),
      inFront: { idle: "files come from disk" },
    },
    // robots.txt and the sitemaps, ahead of the pages, which would answer them "Page not found".
    sitemapsStep(services.catalogue, config.PUBLIC_URL),
    {
      name: "pages",
      hono: (app) => void (ssr && app.all("*", pages(ssr, { config, log, services, caches }))),
      inFront: caches ? pagesInFront(caches, observer.addressRoute) : { idle: "no page is kept" },
    },
  ];
}
