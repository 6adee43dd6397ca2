import { createElement, useContext } from "react";
import { type LinkProps, Link as RouterLink, UNSAFE_NavigationContext as NavigationContext } from "react-router";

/**
 * An absolute path React Router's <Link> gives as its href unchanged (with the basename "/"): "/"
 * or segments that are not empty and do not start with a dot (so no trailing or double slash, no
 * "." or ".."), without search, hash or backslash.
 */
const PLAIN_PATH = /^(?:\/[^/?#\\.][^/?#\\]*)+$|^\/$/;

/** Link's own props: none of them is an attribute of the anchor it renders. */
const LINK_PROPS = new Set([
  "to",
  "discover",
  "prefetch",
  "reloadDocument",
  "replace",
  "mask",
  "state",
  "target",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "relative",
  "onClick",
]);

/**
 * React Router's <Link> as the server renders it, for the common case: an absolute path of its own
 * (`to="/products/1"`), with none of Link's other props but `target` and `onClick`. It renders the
 * very element Link renders there (the other props as given, then `href`, `target` and
 * `data-discover`, in Link's order; a click handler is never markup) without what Link works out
 * for the browser on every render: the href resolved against the matched routes (a JSON round trip
 * of their paths per link), the click handler, the prefetch state and refs (about 5% of an
 * uncached page's CPU: docs/BENCHMARKS.md). Any other link (relative, with search or hash,
 * prefetch, state, reloadDocument...) is React Router's own.
 */
export function ServerLink(props: LinkProps) {
  const { basename } = useContext(NavigationContext);
  const { to } = props;
  if (typeof to !== "string" || basename !== "/" || !PLAIN_PATH.test(to)) return <RouterLink {...props} />;
  // Link's own props would change its markup or behaviour, all but these three.
  const anchor: Record<string, unknown> = {};
  for (const name in props) {
    const value = props[name as keyof LinkProps];
    if (!LINK_PROPS.has(name)) anchor[name] = value;
    else if (name !== "to" && name !== "target" && name !== "onClick" && value !== undefined && !(name === "discover" && value === "render") && !(name === "prefetch" && value === "none"))
      return <RouterLink {...props} />;
  }
  anchor.href = to;
  anchor.target = props.target;
  anchor["data-discover"] = "true";
  return createElement("a", anchor);
}

/**
 * The shop's <Link>: React Router's in the browser (it navigates), ServerLink on the server. The
 * choice is made when each side is built (`import.meta.env.SSR`), so the browser's bundle holds
 * React Router's Link alone.
 */
export const Link: typeof RouterLink = import.meta.env.SSR ? (ServerLink as typeof RouterLink) : RouterLink;
