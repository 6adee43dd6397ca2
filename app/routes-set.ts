/**
 * The global the document's closing script sets to a promise of its own statements having run
 * (app/after-first-paint.server.ts): it imports the route modules after the first paint, one
 * dynamic import each, and the first to load brings the client entry with it (they share its
 * chunk). The entry must not hydrate before that script has set React Router's manifest and route
 * modules.
 */
export const ROUTES_SET = "__storefrontRoutesSet";

/** Resolves once the closing script has set the manifest and the route modules (at once where it is not rewritten). */
export function routesSet(): Promise<unknown> {
  return (window as unknown as Record<string, Promise<unknown> | undefined>)[ROUTES_SET] ?? Promise.resolve();
}
