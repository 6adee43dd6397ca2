import { matchRoutes } from "react-router";
import { memoByAddress } from "../routing/addresses.ts";
import type { BuildRoute, BuildRoutes } from "../routing/build-routes.ts";

/** The route pattern of a page address ("/products/:productId"), or null when no page matches (the 404 page). */
export type PageRoutes = (pathname: string) => string | null;

/**
 * Page addresses to their route patterns, from the production build's route table: the request
 * metrics and logs name a page by its pattern, never by its raw path (unbounded, and it may carry
 * ids). React Router's data requests (/products/1.data) get the page's pattern plus ".data".
 */
export function pageRoutes(routes: BuildRoutes): PageRoutes {
  const fullPath = (route: BuildRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const base = parent ? fullPath(parent) : "";
    return route.path ? `${base.replace(/\/$/, "")}/${route.path.replace(/^\//, "")}` : base || "/";
  };
  const patterns = [...new Set(Object.values(routes).flatMap((route) => (route && (route.path || route.index) ? [fullPath(route)] : [])))];
  const table = patterns.map((path) => ({ path }));
  const lookup = (pathname: string): string | null => {
    const data = pathname.endsWith(".data");
    const path = data ? pathname.slice(0, -".data".length) : pathname;
    if (data && path === "/_root") return "/_root.data";
    const pattern = matchRoutes(table, path)?.at(-1)?.route.path;
    if (!pattern || pattern === "/*" || pattern === "*") return null;
    return data ? `${pattern}.data` : pattern;
  };

  return memoByAddress(lookup);
}
