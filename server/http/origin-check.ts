import type { MiddlewareHandler } from "hono";
import { jsonResponse } from "../api-edge/json-response.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (cross-site request
 * forgery): an Origin that is not ours, or Sec-Fetch-Site "cross-site". Requests without either
 * header come from programs, not browsers, and cannot carry a victim's cookies unasked.
 */
export function sameOriginWrites(trustedOrigins: readonly string[]): MiddlewareHandler {
  const trusted = new Set(trustedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    const crossSite = c.req.header("sec-fetch-site") === "cross-site";
    if ((origin !== undefined && !trusted.has(origin)) || crossSite) {
      return jsonResponse(c, { error: "Requests from other sites are not allowed." }, 403);
    }
    return next();
  };
}
