import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { createRequestHandler, ServerBuild } from "react-router";
import type { PageRenderer } from "../../server/load-context.ts";

/** React Router's handler over the production build and its routes, for tests that render real pages in-process. */
export async function builtPages(): Promise<PageRenderer> {
  const file = path.resolve("build/server/index.js");
  if (!fs.existsSync(file)) throw new Error("The page tests render the production build: run `npm run build` first (npm test does).");
  // The build's own handler: it bundles the React Router its route modules use (app/server-build.ts).
  const build = (await import(pathToFileURL(file).href)) as ServerBuild & { createRequestHandler: typeof createRequestHandler };
  return { handle: build.createRequestHandler(build, "production"), routes: async () => build.routes };
}
