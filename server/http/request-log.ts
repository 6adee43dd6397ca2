import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";

/** One log line per request, once it has been answered. */
export function requestLog(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, "request");
  };
}
