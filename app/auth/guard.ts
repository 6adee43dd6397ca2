import { redirect } from "react-router";

/** Spec section 6: what an anonymous visitor is told when a page needs them signed in. */
export const SIGN_IN_MESSAGES = {
  "/payment": "You must log in to pay",
  "/orders": "You must log in to access your orders",
} as const;

export type ProtectedPath = keyof typeof SIGN_IN_MESSAGES;

export function isProtectedPath(path: string | null): path is ProtectedPath {
  return path !== null && Object.hasOwn(SIGN_IN_MESSAGES, path);
}

/**
 * The signed-in user, or a redirect of the anonymous visitor to /auth that remembers where they
 * were going. Only the path travels in the URL; the message is looked up from it, so nobody can
 * put their own words on our sign-in page.
 */
export function requireUser<U>(user: U | null, path: ProtectedPath): U {
  if (user) return user;
  throw redirect(`/auth?redirectTo=${encodeURIComponent(path)}`);
}

const PROBE_ORIGIN = "http://storefront.invalid";

/**
 * Where to send a shopper after signing in: the path they came for when it is a path on this
 * site, "/" for anything else. "//evil.example", "https://evil.example", "/\\evil.example" and
 * the like all resolve to another origin (browsers read "\" as "/"), so they land on "/".
 */
export function safeRedirectPath(value: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not pass
  if (typeof value !== "string" || !value.startsWith("/") || /[\\\u0000-\u001f]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return "/";
  }
  return url.origin === PROBE_ORIGIN && !value.startsWith("//") ? `${url.pathname}${url.search}${url.hash}` : "/";
}
