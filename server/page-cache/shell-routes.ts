import { matchRoutes } from "react-router";
import { type BuildRoutes, routeTable } from "../routing/build-routes.ts";
import { memoByAddress } from "../routing/addresses.ts";

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

const declared = (handle: unknown): unknown => (handle as Partial<ShellDeclaration> | undefined)?.shell;

/**
 * Whether `pathname` is spelled as the matched routes spell their path, `/`-joined: the same
 * segments, each static one exactly (React Router also renders "/CART", "/cart/" or "/%63art";
 * those render in full, as the caches drop a changed product's pages by their own spelling), each
 * dynamic one non-empty. A path with a splat or an optional segment has no one spelling: never.
 */
function spelledAsRoute(paths: readonly (string | undefined)[], pathname: string): boolean {
  const pattern = paths.flatMap((path) => path?.split("/").filter(Boolean) ?? []);
  const segments = pathname.split("/").slice(1);
  if (pattern.some((segment) => segment.includes("*") || segment.endsWith("?"))) return false;
  if (pattern.length === 0) return pathname === "/";
  return segments.length === pattern.length && pattern.every((segment, i) => (segment.startsWith(":") ? segments[i] !== "" : segment === segments[i]));
}

/**
 * The addresses for which React Router renders a route that declares `shell: true`, under no route
 * that says false, found with React Router's own matcher on the build's route table (as the back
 * office's guard finds its routes, admin/gate.ts), so the declaration read is that of the route the
 * page shows; spelled as that route spells them; never React Router's data requests (/products/1.data).
 */
export function shellPages(routes: BuildRoutes): ShellPages {
  const table = routeTable(routes);
  const lookup = (pathname: string): boolean => {
    if (pathname.endsWith(".data")) return false;
    const matches = matchRoutes(table, pathname);
    if (!matches || declared(matches.at(-1)!.route.handle) !== true) return false;
    if (matches.some((match) => declared(match.route.handle) === false)) return false;
    return spelledAsRoute(
      matches.map((match) => match.route.path),
      pathname,
    );
  };
  return memoByAddress(lookup);
}
