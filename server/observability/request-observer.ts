import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/env.ts";
import { isFilePath } from "../http/paths.ts";
import type { Logger } from "../log.ts";
import type { ShopMetrics } from "./metrics.ts";
import type { PageRoutes } from "./page-routes.ts";
import type { RequestSpan, Tracing } from "./tracing.ts";

export interface RequestObserverOptions {
  log: Logger;
  metrics: Pick<ShopMetrics, "request">;
  tracing: Tracing;
  /** How many proxies stand in front (TRUST_PROXY): only then is their X-Request-Id taken. */
  trustProxy: number;
  /** Page addresses to route patterns; without it (development) every page is "page". */
  pageRoutes?: PageRoutes;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** What a proxy's request id may look like (nginx's $request_id is 32 hex digits); anything else is replaced. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Catch-alls: they say nothing of what answered, so the address decides (static, a page, unmatched). */
const CATCH_ALL = /^(\/api)?\/?\*$/;
const NO_SPAN: RequestSpan = { traceId: "", finish() {} };

/**
 * The first step of every request: its id (sent back as X-Request-Id), its span when tracing, its
 * metrics and its one log line. The line names the route pattern, never the raw path, which may
 * carry tokens (better-auth's reset links) or search words; nor an email, a body or a header.
 */
export function observeRequests(options: RequestObserverOptions): MiddlewareHandler<AppEnv> {
  const { log, metrics, tracing, trustProxy, pageRoutes } = options;

  const routeOf = (c: Context<AppEnv>): string => {
    const pattern = routePath(c);
    if (pattern && !CATCH_ALL.test(pattern)) return pattern;
    const path = c.req.path;
    if (isFilePath(path)) return "static";
    if (path === "/api" || path.startsWith("/api/")) return "unmatched";
    if (!pageRoutes) return "page";
    return pageRoutes(path) ?? "unmatched";
  };

  return async (c, next) => {
    const started = performance.now();
    // node:http's own header object where there is one: asking Hono would build the request's Headers,
    // a cost the catalogue API's fast path otherwise never pays.
    const incoming = c.env?.incoming?.headers;
    const header = incoming ? (name: string) => single(incoming[name]) : (name: string) => c.req.header(name);
    const proxied = trustProxy > 0 ? header("x-request-id") : undefined;
    const id = proxied && REQUEST_ID.test(proxied) ? proxied : randomUUID();
    const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
    const outgoing = c.env?.outgoing;
    // On node:http the id goes onto the socket's response as a default header: the response object
    // is not copied for it (see securityHeaders).
    if (outgoing) outgoing.setHeader("X-Request-Id", id);

    const answer = async (span: RequestSpan) => {
      try {
        await next();
      } finally {
        const route = routeOf(c);
        const status = c.res.status;
        const ms = performance.now() - started;
        span.finish(method, route, status);
        metrics.request(method, route, status, ms / 1000);
        const user = c.get("user");
        log.info(
          { requestId: id, method, route, status, ms: Math.round(ms * 10) / 10, ...(span.traceId ? { traceId: span.traceId } : {}), ...(user ? { userId: user.uid } : {}) },
          "request",
        );
      }
    };
    await (tracing.enabled ? tracing.request(method, header, answer) : answer(NO_SPAN));
    if (!outgoing) setHeader(c, "X-Request-Id", id);
  };
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Outside node:http (app.request in tests): onto the finished response, copied when its headers are read-only. */
function setHeader(c: Context<AppEnv>, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}
