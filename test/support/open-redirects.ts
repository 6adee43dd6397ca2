/**
 * Open redirects: sign-in targets that are not a path on this site, each of which must land on "/"
 * whichever way it arrives (form post, `.data` request, the page's hidden field). Shared by the
 * guard's unit test, the sign-in page tests and bench/probes.ts.
 */
export const OFF_SITE_TARGETS: readonly string[] = [
  "/.//x",
  "/%2e%2e//x",
  "/a/..//x",
  "/\\x",
  "/%5cx",
  "\\\\x",
  "//x",
  "https://x",
  "javascript:alert(1)",
  " /x",
  "/%09/x",
];
