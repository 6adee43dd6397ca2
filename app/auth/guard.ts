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
 * site, "/" for anything else. What is checked is the normalised result, the path that would go
 * out in Location: "/.//x", "/%2e%2e//x" and "/a/..//x" all normalise to "//x", another host.
 * The value is checked once more percent-decoded, since a proxy or a later hop may decode it:
 * "/%5cx" is "/\x" and "/%09/x" carries a tab.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== "string") return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return "/";
  }
  // Raw whitespace never belongs in a path we wrote ourselves; decoded spaces ("%20") do.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not pass
  if (/[\s]/.test(value) || /[\\\u0000-\u001f\u007f]/.test(decoded)) return "/";
  const path = localPath(value);
  return path !== null && localPath(decoded) !== null ? path : "/";
}

/** `value` normalised against this site, when the result is a path here (one leading "/"); else null. */
function localPath(value: string): string | null {
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== PROBE_ORIGIN || !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return null;
  // What a browser makes of the result must be this site too.
  return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN ? path : null;
}
