import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.ts";
import { isFilePath } from "../routing/addresses.ts";
import type { InFront } from "../pipeline/step.ts";
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

/**
 * The session step in front of Hono (pipeline/ready-answers.ts): a visitor without a session cookie
 * is anonymous; a cookie header this process has already verified, and not seen end, is its user
 * (nothing to renew); any other session goes to Hono, which asks the database. Files never need
 * the user, as above.
 */
export function sessionInFront(auth: Pick<AuthService, "knownUser" | "hasSessionCookie">): InFront {
  return {
    admits: (visit) => {
      const cookie = visit.req.headers.cookie;
      if (!cookie || isFilePath(visit.path)) return true;
      // A verified session's cookie is looked up as it is, before any cookie is parsed.
      visit.user = auth.knownUser(cookie);
      return visit.user !== null || !auth.hasSessionCookie(new Headers({ cookie }));
    },
  };
}
