import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/env.ts";
import { isFilePath } from "../routing/addresses.ts";
import type { Logger } from "../log.ts";
import type { InFront, Visit } from "../pipeline/step.ts";
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

/** What observes each request: the Hono step, and the same for answers given before Hono. */
export interface RequestObserver {
  /** The first step of the Hono pipeline. */
  readonly step: MiddlewareHandler<AppEnv>;
  /**
   * The same for an answer given in front of Hono (pipeline/ready-answers.ts): it is written with
   * its request id, inside the request's span when tracing, and counted and logged as `step` does.
   */
  readonly inFront: InFront;
  /** The route label of an address no Hono route names (a page, a file, an unmatched /api address). */
  addressRoute(path: string): string;
}

/**
 * The first step of every request: its id (sent back as X-Request-Id), its span when tracing, its
 * metrics and its one log line. The line names the route pattern, never the raw path, which may
 * carry tokens (better-auth's reset links) or search words; nor an email, a body or a header.
 */
export function requestObserver(options: RequestObserverOptions): RequestObserver {
  const { log, metrics, tracing, trustProxy, pageRoutes } = options;
  // The request line holds only the fields `finished` gives it (ids, the route pattern, numbers),
  // none of which the logger's redaction paths can name, so it is written without them: pino runs
  // a wildcard path's redactor over every field of a line, about 2.5 µs a line, 7% of a catalogue
  // API request. Every other line keeps the redaction.
  const requestLog = log.child({}, { redact: [] });

  const addressRoute = (path: string): string => {
    if (isFilePath(path)) return "static";
    if (path === "/api" || path.startsWith("/api/")) return "unmatched";
    if (!pageRoutes) return "page";
    return pageRoutes(path) ?? "unmatched";
  };
  const routeOf = (c: Context<AppEnv>): string => {
    const pattern = routePath(c);
    return pattern && !CATCH_ALL.test(pattern) ? pattern : addressRoute(c.req.path);
  };
  const requestId = (header: (name: string) => string | undefined): string => {
    const proxied = trustProxy > 0 ? header("x-request-id") : undefined;
    return proxied && REQUEST_ID.test(proxied) ? proxied : randomUUID();
  };
  /** The metrics and the log line of a finished request. */
  const finished = (span: RequestSpan, id: string, method: string, route: string, status: number, started: number, userId?: string) => {
    const ms = performance.now() - started;
    span.finish(method, route, status);
    metrics.request(method, route, status, ms / 1000);
    requestLog.info(
      { requestId: id, method, route, status, ms: Math.round(ms * 10) / 10, ...(span.traceId ? { traceId: span.traceId } : {}), ...(userId ? { userId } : {}) },
      "request",
    );
  };

  const step: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = performance.now();
    // node:http's own header object where there is one: asking Hono would build the request's Headers.
    const incoming = c.env?.incoming?.headers;
    const header = incoming ? (name: string) => single(incoming[name]) : (name: string) => c.req.header(name);
    const id = requestId(header);
    const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
    const outgoing = c.env?.outgoing;
    // On node:http the id goes onto the socket's response as a default header: the response object
    // is not copied for it (see securityHeaders).
    if (outgoing) outgoing.setHeader("X-Request-Id", id);

    const answer = async (span: RequestSpan) => {
      try {
        await next();
      } finally {
        finished(span, id, method, routeOf(c), c.res.status, started, c.get("user")?.uid);
      }
    };
    await (tracing.enabled ? tracing.request(header, answer, outgoing) : answer(NO_SPAN));
    if (!outgoing) setHeader(c, "X-Request-Id", id);
  };

  const observe = ({ req: incoming, started, user }: Visit, route: string, send: (requestId: string) => number): void => {
    const header = (name: string) => single(incoming.headers[name]);
    const id = requestId(header);
    const method = incoming.method && METHODS.has(incoming.method) ? incoming.method : "OTHER";
    // All of it in one synchronous turn: no promise per request. The answer starts no other span,
    // so its span need not be made current (no async context to carry).
    const span = tracing.span(header);
    let status = 500;
    try {
      status = send(id);
    } finally {
      finished(span, id, method, route, status, started, user?.uid);
    }
  };
  return { step, inFront: observing(observe), addressRoute };
}

/** An answer given in front of Hono, written inside `observe` with its request id. */
function observing(observe: (visit: Visit, route: string, send: (requestId: string) => number) => void): InFront {
  return {
    wraps: (write) => (visit, res, found, headers) =>
      observe(visit, found.route, (requestId) => {
        headers.push("X-Request-Id", requestId);
        write(visit, res, found, headers);
        return found.answer.status;
      }),
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
