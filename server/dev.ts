import path from "node:path";
import type { ServerBuild } from "react-router";
import type { Pages } from "./serve.ts";

// `npm run dev`: the shop with its pages rendered through Vite (hot reload, React Router's
// development build). Vite serves the project's files, sources and data folder included, so this
// entry is for a developer's own machine only; the built server (server/main.ts) never loads Vite.

// Before anything that reads it is loaded (the shop's config, React Router, better-auth): the
// imports below are dynamic so that they come after this line.
process.env.NODE_ENV = "development";

const [{ runShop }, { createRequestHandler }, vite] = await Promise.all([import("./serve.ts"), import("react-router"), import("vite")]);

/** Vite's own refusals, and the shop's data folder (the database, the mail with its live links). */
const denied = [".env", ".env.*", "*.{crt,pem}", "**/.git/**", `${path.resolve(process.env.DATA_DIR || "data")}/**`];

async function vitePages(): Promise<Pages> {
  const server = await vite.createServer({ server: { middlewareMode: true, fs: { deny: denied } }, appType: "custom" });
  const build = () => server.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  return { ssr: { handle: createRequestHandler(build, "development"), routes: async () => (await build()).routes }, middleware: server.middlewares };
}

runShop({ mode: "development", pages: vitePages });
