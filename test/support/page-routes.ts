import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { type PageRoutes, pageRoutes } from "../../server/observability/page-routes.ts";

/** The production build's page route patterns, as main.ts takes them. */
export async function builtPageRoutes(): Promise<PageRoutes> {
  const file = path.resolve("build/server/index.js");
  if (!fs.existsSync(file)) throw new Error("The page tests render the production build: run `npm run build` first (npm test does).");
  const build = (await import(pathToFileURL(file).href)) as ServerBuild;
  return pageRoutes(build.routes);
}
