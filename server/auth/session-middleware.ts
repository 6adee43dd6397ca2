import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.ts";
import { isFilePath } from "../http/paths.ts";
import type { AuthService } from "./auth.ts";

/**
 * Resolves the session's user once per request (none without a session cookie; files never need
 * it). A renewed session cache, or a dead session's clearing, goes back with the answer, unless
 * that answer is public (cacheable by browsers and proxies, the same for everyone): a cookie there
 * could be stored with it and handed to someone else, so the renewal waits for the next private
 * answer. Whatever answer does set a cookie is made `private, no-store`.
 */
export function sessionMiddleware(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isFilePath(c.req.path)) {
      c.set("user", null);
      return next();
    }
    const { user, setCookies } = await auth.sessionUser(c.req.raw.headers);
    c.set("user", user);
    await next();
    const headers = c.res.headers;
    if (setCookies.length > 0 && !headers.getSetCookie().length && !isPublic(headers)) for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    if (headers.getSetCookie().length > 0) headers.set("Cache-Control", "private, no-store");
  };
}

const isPublic = (headers: Headers): boolean => /(^|,)\s*public\s*(,|$)/i.test(headers.get("cache-control") ?? "");
