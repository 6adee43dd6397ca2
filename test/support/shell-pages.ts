import { Hono } from "hono";
import type { SessionUser } from "../../server/auth/auth.ts";
import { sessionMiddleware } from "../../server/auth/session-middleware.ts";
import { loadConfig } from "../../server/config.ts";
import { compression } from "../../server/http/compression.ts";
import { contentSecurityPolicy } from "../../server/http/csp.ts";
import type { AppEnv } from "../../server/http/env.ts";
import { securityHeaderSet, securityHeaders } from "../../server/http/security-headers.ts";
import type { PageRenderer } from "../../server/load-context.ts";
import { createLogger } from "../../server/log.ts";
import { PersonalShells, pageCaches } from "../../server/page-cache/index.ts";
import { pages } from "../../server/pages.ts";
import type { Services } from "../../server/services.ts";
import { TEST_ORIGIN } from "./app.ts";

/**
 * The pages step as server/app.ts mounts it (security headers, compression, the session), with the
 * personal shells given, so a test can look at what they keep; `user` stands in for the session
 * (any user, even one the sign-up form would refuse). `cache: false` renders every page in full.
 */
export function pagesLayer(ssr: PageRenderer, services: Services, options: { cache: boolean; user?: () => SessionUser | null }) {
  const config = loadConfig({ NODE_ENV: "production", PUBLIC_URL: TEST_ORIGIN, PAGE_CACHE_ENTRIES: options.cache ? "500" : "0" });
  const log = createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" });
  const shells = new PersonalShells({ maxEntries: 500, maxBytes: 16 * 1024 * 1024 });
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders(securityHeaderSet({ csp: contentSecurityPolicy({ development: false, checkout: services.checkout }), hsts: false })));
  app.use("*", compression());
  const { user } = options;
  app.use(
    "*",
    user
      ? async (c, next) => {
          c.set("user", user());
          await next();
        }
      : sessionMiddleware(services.auth),
  );
  app.all("*", pages(ssr, { config, log, services, caches: pageCaches(config, services, () => ssr.routes(), shells) }));
  return { app, shells };
}
