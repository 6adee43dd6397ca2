import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.ts";
import { isFilePath } from "../http/paths.ts";
import type { AuthService } from "./auth.ts";

/**
 * Resolves the session's user once per request (none without a session cookie; files never need
 * it). A renewed session cache, or a dead session's clearing, goes back with whatever answered.
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
    if (setCookies.length > 0 && !c.res.headers.getSetCookie().length) for (const cookie of setCookies) c.res.headers.append("Set-Cookie", cookie);
  };
}
