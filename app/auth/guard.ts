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
 * Sends an anonymous visitor to /auth, remembering where they were going. Only the path travels in
 * the URL; the message is looked up from it, so nobody can put their own words on our sign-in page.
 */
export function requireSignIn(path: ProtectedPath): never {
  throw redirect(`/auth?redirectTo=${encodeURIComponent(path)}`);
}
