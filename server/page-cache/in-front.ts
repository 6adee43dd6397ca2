import { newNonce } from "../http/security-headers.ts";
import { MANIFEST_PATH } from "../routing/addresses.ts";
import { single } from "../pipeline/ready-answers.ts";
import type { Found, InFront, Visit } from "../pipeline/step.ts";
import type { PageCaches } from "./caches.ts";

/**
 * Pages in front of Hono (pipeline/ready-answers.ts): an anonymous visitor's page when the cache
 * keeps it, a signed-in visitor's (the session step found them) from its kept shell, exactly as the
 * pages step gives them. The cache never keeps a back-office page (server/pages.ts), so only the
 * guard's view of route discovery is left to route around: discovery always goes to Hono.
 * `routeOf` names the route the request is counted under.
 */
export function pagesInFront(caches: PageCaches, routeOf: (path: string) => string): InFront {
  const found = (visit: Visit, answer: (nonce: string) => Found["answer"] | null): Found | null => {
    const nonce = newNonce();
    const made = answer(nonce);
    return made && { route: routeOf(visit.path), answer: made, nonce };
  };
  return {
    finds: (visit) => {
      const { req, url, path, user } = visit;
      if (req.method !== "GET") return null;
      const encoding = single(req.headers["accept-encoding"]);
      if (user) return caches.fromShell(path) ? found(visit, (nonce) => caches.personal.kept(url, user, nonce, encoding)) : null;
      if (path === MANIFEST_PATH || !caches.anonymous.has(url)) return null;
      return found(visit, (nonce) => caches.anonymous.lookup(url, nonce, encoding));
    },
  };
}
