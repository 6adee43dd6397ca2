import type { BuildRoute, BuildRoutes } from "../admin/gate.ts";

/**
 * Each page route declares whether a signed-in visitor may get it from a personal shell:
 * `export const handle = { shell: true }` on a page whose loaders and actions read nothing of the
 * user or the session but what the root loader returns (the catalogue's pages, the cart, the
 * language page), so the page differs from the anonymous one only where the root loader's user
 * shows; `{ shell: false }` on every other (orders, payment, the back office, the account pages,
 * anything that reads the user). A route under one that says false never comes from a shell.
 */
export interface ShellDeclaration {
  shell: boolean;
}

/** Whether a page address may come from a personal shell. */
export type ShellPages = (pathname: string) => boolean;

const declared = (route: BuildRoute): unknown => (route.module?.handle as Partial<ShellDeclaration> | undefined)?.shell;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The addresses of the routes that declare `shell: true`, as the routes spell them: exact,
 * lower-case paths (React Router also matches "/CART/" or "/%63art"; those render in full), each
 * dynamic segment one non-empty segment; never React Router's data requests (/products/1.data).
 * A route whose path has a splat or an optional segment is never a shell's.
 */
export function shellPages(routes: BuildRoutes): ShellPages {
  const parentOf = (route: BuildRoute) => (route.parentId === undefined ? undefined : routes[route.parentId]);
  const fullPath = (route: BuildRoute): string => {
    const parent = parentOf(route);
    const base = parent ? fullPath(parent) : "";
    return route.path ? `${base.replace(/\/$/, "")}/${route.path.replace(/^\//, "")}` : base || "/";
  };
  const vetoed = (route: BuildRoute | undefined): boolean => route !== undefined && (declared(route) === false || vetoed(parentOf(route)));
  const patterns: string[] = [];
  for (const route of Object.values(routes)) {
    if (!route || declared(route) !== true || vetoed(parentOf(route)) || (!route.path && !route.index)) continue;
    const segments = fullPath(route).split("/").slice(1);
    if (segments.some((segment) => segment.includes("*") || segment.endsWith("?"))) continue;
    patterns.push(segments.map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment))).join("/"));
  }
  if (patterns.length === 0) return () => false;
  const shell = new RegExp(`^/(?:${patterns.join("|")})$`);
  return (pathname) => shell.test(pathname) && !pathname.endsWith(".data");
}
