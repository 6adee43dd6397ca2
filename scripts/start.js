// `npm start`: runs the shop as compiled JavaScript from build/, building first only when the build
// is missing or older than its sources. Plain JavaScript on purpose: no TypeScript loader at start.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const SERVER = path.join(root, "build", "node", "main.js");
const OUTPUTS = [SERVER, path.join(root, "build", "server", "index.js")];
const SOURCES = ["app", "server", "lib", "catalogue", "public", "package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

/** The newest modification time under `entry` (a file or a folder), test files excluded. */
function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

function buildIsCurrent() {
  const built = Math.min(...OUTPUTS.map((file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0));
  return built > 0 && SOURCES.every((source) => newest(path.join(root, source)) <= built);
}

/** Runs a command beside us; when it fails it has said why, so we only pass its exit code on. */
function run(command, args) {
  try {
    execFileSync(command, args, { cwd: root, stdio: "inherit" });
  } catch (error) {
    process.exit(typeof error.status === "number" ? error.status : 1);
  }
}

if (!buildIsCurrent()) {
  // A bad configuration is reported before the build's minute, not after it.
  run(path.join(root, "node_modules", ".bin", "tsx"), ["server/main.ts", "--check-config"]);
  run(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"]);
}
process.env.NODE_ENV = "production";
// Stack traces in the logs point at the TypeScript sources (the build writes source maps).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER).href);
