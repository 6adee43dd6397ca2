import { useContext } from "react";
import { type LinkProps, Link as RouterLink, UNSAFE_NavigationContext as NavigationContext } from "react-router";

/**
 * An absolute path React Router's <Link> gives as its href unchanged (with the basename "/"): no
 * search or hash, no empty, "." or ".." segment (so no trailing or double slash), no backslash.
 */
const PLAIN_PATH = /^\/(?:(?!\.\.?(?:\/|$))[^/?#\\]+(?:\/(?!\.\.?(?:\/|$))[^/?#\\]+)*)?$/;

/**
 * React Router's <Link> as the server renders it, for the common case: an absolute path of its own
 * (`to="/products/1"`), nothing else of Link's own props. It renders the very element Link
 * renders there (the anchor with the given props, `href`, `target` and `data-discover`, in
 * Link's order) without what Link works out for the browser on every render: the href resolved
 * against the matched routes (a JSON round trip of their paths per link), the click handler, the
 * prefetch state and refs (about 5% of an uncached page's CPU: docs/BENCHMARKS.md). Any other
 * link (relative, with search or hash, prefetch, state, reloadDocument...) is React Router's own.
 */
export function ServerLink(props: LinkProps) {
  const { to, discover, prefetch, reloadDocument, replace, mask, state, target, preventScrollReset, viewTransition, defaultShouldRevalidate, relative, onClick, ...rest } = props;
  const { basename } = useContext(NavigationContext);
  const plain =
    typeof to === "string" &&
    PLAIN_PATH.test(to) &&
    basename === "/" &&
    (discover === undefined || discover === "render") &&
    (prefetch === undefined || prefetch === "none") &&
    reloadDocument === undefined &&
    replace === undefined &&
    mask === undefined &&
    state === undefined &&
    preventScrollReset === undefined &&
    viewTransition === undefined &&
    defaultShouldRevalidate === undefined &&
    relative === undefined;
  void onClick; // A click handler is never part of the server's markup.
  if (!plain) return <RouterLink {...props} />;
  return <a {...rest} href={to} target={target} data-discover="true" />;
}

/**
 * The shop's <Link>: React Router's in the browser (it navigates), ServerLink on the server. The
 * choice is made when each side is built (`import.meta.env.SSR`), so the browser's bundle holds
 * React Router's Link alone.
 */
export const Link: typeof RouterLink = import.meta.env.SSR ? (ServerLink as typeof RouterLink) : RouterLink;
