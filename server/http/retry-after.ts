import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * Every 429 carries the standard Retry-After (seconds), which browsers, proxies and HTTP clients
 * understand. better-auth's rate limit says only X-Retry-After, and a page that passes on its
 * refusal says nothing: they get its value, or else `fallbackSeconds` (the sign-in window).
 */
export function retryAfterOn429(fallbackSeconds: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 429 || c.res.headers.has("retry-after")) return;
    const seconds = /^\d+$/.test(c.res.headers.get("x-retry-after") ?? "") ? c.res.headers.get("x-retry-after")! : String(fallbackSeconds);
    try {
      c.res.headers.set("Retry-After", seconds);
    } catch {
      // A response whose headers cannot change (one passed on as it came): a copy that says it.
      const headers = new Headers(c.res.headers);
      headers.set("Retry-After", seconds);
      c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
    }
  };
}
