// `npm run deps:latest`: do the newest releases within package.json's ranges still build and pass the
// tests? In a scratch copy of the repository (its tracked files), `npm update` moves every package,
// the lock included, to the newest release its range allows; the copy is built and its unit and
// integration tests run. Prints what moved (old → new) and exits non-zero when the update, the build
// or a test fails. The repository, its lock and its node_modules stay as they are; the copy is removed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const started = Date.now();

/** Whether a lock entry's os or cpu list (["linux"], ["!win32"]) admits this machine's. */
const fits = (list, value) => !list || list.includes(value) || (list.every((item) => item.startsWith("!")) && !list.includes(`!${value}`));

/**
 * Versions by package name ("1.2.3", or "1.2.3, 2.0.1" when several copies are installed), of the
 * packages a lock installs on this machine: other platforms' builds (@esbuild/darwin-arm64...) left out.
 */
function lockedVersions(lockFile) {
  const byName = new Map();
  for (const [key, entry] of Object.entries(JSON.parse(fs.readFileSync(lockFile, "utf8")).packages)) {
    if (!key.includes("node_modules/") || !entry.version) continue;
    if (!fits(entry.os, process.platform) || !fits(entry.cpu, process.arch)) continue;
    const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    byName.set(name, [...(byName.get(name) ?? []), entry.version]);
  }
  return new Map([...byName].map(([name, versions]) => [name, [...new Set(versions)].sort().join(", ")]));
}

/** One line per package whose installed versions differ, direct dependencies marked with `*`. */
function moved(before, after, direct) {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => `${direct.has(name) ? "*" : " "} ${name} ${before.get(name) ?? "(new)"} → ${after.get(name) ?? "(gone)"}`);
}

function run(work, command, args) {
  console.log(`== deps:latest [${Math.round((Date.now() - started) / 1000)}s] ${command} ${args.join(" ")}`);
  execFileSync(command, args, { cwd: work, stdio: "inherit" });
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-deps-latest-"));
// Ctrl-C reaches the running command too (same process group); the copy is removed once it has ended.
process.on("SIGINT", () => {});
let report = [];
try {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of tracked) {
    // A tracked file deleted in the working tree is left out, as it would be from a commit.
    if (!fs.existsSync(path.join(root, file))) continue;
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(work, file));
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(work, "package.json"), "utf8"));
  const direct = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
  const before = lockedVersions(path.join(work, "package-lock.json"));

  console.log(`Scratch copy: ${work}`);
  run(work, "npm", ["update", "--no-audit", "--no-fund"]);
  const lines = moved(before, lockedVersions(path.join(work, "package-lock.json")), direct);
  report = lines.length > 0 ? [`${lines.length} packages moved (* direct dependency):`, ...lines] : ["Nothing moved: the lock holds the newest releases within the ranges."];
  console.log(report.join("\n"));

  run(work, "npm", ["run", "build"]);
  run(work, "npx", ["vitest", "run", "--project", "unit", "--project", "integration"]);
  console.log(`\n${report.join("\n")}\ndeps:latest passed in ${Math.round((Date.now() - started) / 1000)}s.`);
} catch (error) {
  // A failed command has printed why; repeat what moved, which is what the failure is likely about.
  console.error(`\n${report.join("\n")}\ndeps:latest failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  process.exitCode = error?.status || 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
