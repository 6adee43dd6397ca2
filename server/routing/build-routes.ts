import type { RouteObject } from "react-router";

/** A route of React Router's server build (build.routes), as far as matching and the routes' declarations go. */
export interface BuildRoute {
  id: string;
  path?: string;
  parentId?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module?: { handle?: unknown };
}
export type BuildRoutes = Record<string, BuildRoute | undefined>;

/**
 * The build's routes as React Router's own matcher (`matchRoutes`) takes them, each with its id and
 * its module's handle: whoever asks which route an address reaches (the back office's guard, the
 * personal shells) gets the route React Router renders for it.
 */
export function routeTable(routes: BuildRoutes): RouteObject[] {
  const all = Object.values(routes).filter((route): route is BuildRoute => route !== undefined);
  const tree = (parentId: string | undefined): RouteObject[] =>
    all
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive, handle: route.module?.handle }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, handle: route.module?.handle, children: tree(route.id) },
      );
  return tree(undefined);
}
