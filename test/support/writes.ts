import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { betterAuth } from "better-auth";
import type { ServerBuild } from "react-router";
import { TEST_ORIGIN } from "./app.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** A path pattern made an address: every parameter (`:id`, `:id{[0-9]+}`) is 1. */
const concrete = (pattern: string): string => pattern.replace(/:[A-Za-z]+(?:\{[^}]*\})?/g, "1");

/**
 * Every write the API takes, as method and address, read from the Hono app's own routes (`routes`),
 * better-auth's wildcard made the writes of better-auth's endpoints: a route added later is in it.
 */
export function apiWrites(routes: ReadonlyArray<{ method: string; path: string }>): Array<{ method: string; path: string }> {
  const writes = new Map<string, { method: string; path: string }>();
  for (const { method, path: pattern } of routes) {
    if (!WRITES.has(method) || !pattern.startsWith("/api/")) continue;
    const paths = pattern === "/api/auth/*" ? betterAuthWrites() : [concrete(pattern)];
    for (const p of paths) writes.set(`${method} ${p}`, { method, path: p });
  }
  return [...writes.values()];
}

/** The addresses of better-auth's POST endpoints (its core endpoints: the shop adds no plugin). */
function betterAuthWrites(): string[] {
  const auth = betterAuth({ secret: "a test secret that is only used to list endpoints", baseURL: TEST_ORIGIN, emailAndPassword: { enabled: true }, telemetry: { enabled: false }, logger: { disabled: true } });
  return Object.values(auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
    .filter((endpoint) => endpoint.path && [endpoint.options?.method].flat().includes("POST"))
    .map((endpoint) => `/api/auth${concrete(endpoint.path!)}`);
}

/** Every page with an action in the production build, as an address (its parameters 1). */
export async function builtPageWrites(): Promise<string[]> {
  const file = path.resolve("build/server/index.js");
  if (!fs.existsSync(file)) throw new Error("The page tests render the production build: run `npm run build` first (npm test does).");
  const { routes } = (await import(pathToFileURL(file).href)) as ServerBuild;
  const full = (id: string): string => {
    const route = routes[id]!;
    const parent = route.parentId ? full(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent;
  };
  return Object.values(routes)
    .filter((route) => route && typeof route.module.action === "function")
    // An index route's action is asked for with ?index (without it, the post goes to its parent).
    .map((route) => concrete(full(route!.id) || "/") + (route!.index ? "?index" : ""));
}
