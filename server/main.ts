import path from "node:path";
import { pathToFileURL } from "node:url";
import type { createRequestHandler, ServerBuild } from "react-router";
import { pageRoutes } from "./observability/page-routes.ts";
import { type Pages, runShop } from "./serve.ts";

// The shop's production entry: what `npm run build` compiles to build/node/main.js, and what
// `npm start`, the container and any process manager run. It serves the built app and nothing else,
// whatever NODE_ENV says: Vite, which would serve the project's files, is only reached through the
// development entry (server/dev.ts, `npm run dev`).

const BUILD_DIR = path.resolve("build");

/** The server build carries its own (production) React Router: its handler is the one to use (app/server-build.ts). */
type BuiltApp = ServerBuild & { createRequestHandler: typeof createRequestHandler };

async function builtPages(): Promise<Pages> {
  const buildFile = path.join(BUILD_DIR, "server", "index.js");
  const build = (await import(pathToFileURL(buildFile).href)) as BuiltApp;
  const ssr = { handle: build.createRequestHandler(build, "production"), routes: async () => build.routes };
  return { ssr, clientDir: path.join(BUILD_DIR, "client"), pageRoutes: pageRoutes(build.routes) };
}

runShop({ mode: "production", pages: builtPages });
