import { TrieRouter } from "hono/router/trie-router";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/**
 * The methods a path answers, from an app's routes: what tells "this path exists, but not for this
 * method" (405, with Allow) from "no such path" (404). Middleware, registered for every method,
 * does not count, nor does a preflight answer for a whole subtree (`OPTIONS /x/*`). Built on first
 * use, once every route is in place; only requests that matched no route ask.
 */
export function allowedMethods(routes: () => ReadonlyArray<{ method: string; path: string }>): (path: string) => string[] {
  let router: TrieRouter<true> | undefined;
  return (path) => {
    if (!router) {
      router = new TrieRouter<true>();
      for (const { method, path: pattern } of routes()) {
        if (method === "ALL" || (method === "OPTIONS" && pattern.endsWith("*"))) continue;
        router.add(method, pattern, true);
      }
    }
    const allowed: string[] = METHODS.filter((method) => router!.match(method, path)[0].length > 0);
    if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.splice(1, 0, "HEAD");
    return allowed;
  };
}
