/**
 * Paths that name a file (/favicon.svg, /assets/x.js): served from disk, never rendered, and never
 * in need of the user. React Router's data requests (/orders.data, /_.data) look like files but are pages.
 */
export const isFilePath = (path: string): boolean => /\.\w+$/.test(path) && !path.endsWith(".data");

/** React Router's route discovery: the browser asks it for the routes of the paths it may visit. */
export const MANIFEST_PATH = "/__manifest";

/**
 * `lookup` kept per address, for the route lookups asked on every request (ranking the routes
 * costs tens of microseconds, as much as a cached page's whole answer). Addresses are unbounded,
 * so at `max` entries the memory starts again.
 */
export function memoByAddress<T>(lookup: (pathname: string) => T, max = 2_000): (pathname: string) => T {
  const kept = new Map<string, T>();
  return (pathname) => {
    if (kept.has(pathname)) return kept.get(pathname)!;
    if (kept.size >= max) kept.clear();
    const value = lookup(pathname);
    kept.set(pathname, value);
    return value;
  };
}
