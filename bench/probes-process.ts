// Live probes of how the built shop runs as a process: without NODE_ENV, with a secret in a URL,
// and what it leaves on disk.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { print } from "./probes-checks.ts";

const SERVER = path.resolve("build/node/main.js");

/** The built entry as a process manager would start it: no NODE_ENV at all. */
export async function withoutNodeEnv(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-probes-"));
  const env: Record<string, string | undefined> = { ...process.env, HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "info" };
  delete env.NODE_ENV;
  const child = spawn(process.execPath, [SERVER], { env, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the shop did not start within 20 s")), 20_000);
      let buffered = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        for (const line of buffered.split("\n").slice(0, -1)) {
          if (!line.includes("Storefront is listening")) continue;
          clearTimeout(timer);
          resolve(JSON.parse(line) as Record<string, unknown>);
        }
        buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
      });
      child.on("exit", (code) => reject(new Error(`the shop exited with ${code}`)));
    });
    print("node build/node/main.js without NODE_ENV", `mode: ${String(listening.mode)}`);
    for (const address of [`/@fs${process.cwd()}/package.json`, `/@fs${dataDir}/storefront.sqlite`, "/server/config.ts", "/@vite/client"]) {
      const response = await fetch(`${String(listening.url)}${address}`);
      await response.arrayBuffer();
      print(`GET ${address}`, String(response.status));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A malformed URL with a password in it: the start-up error names the variable, not the secret. */
export function secretInUrl(): void {
  const result = spawnSync(process.execPath, [SERVER, "--check-config"], {
    env: { ...process.env, NODE_ENV: "production", OTEL_EXPORTER_OTLP_ENDPOINT: "http://u:SECRET@h x" },
    encoding: "utf8",
  });
  const said = result.stderr.trim().replace(/\s+/g, " ");
  print("OTEL_EXPORTER_OTLP_ENDPOINT='http://u:SECRET@h x'", `exit ${result.status}; ${said.includes("SECRET") ? "PRINTS the secret" : "no secret"}: ${said.slice(0, 80)}`);
}

/** The modes of DATA_DIR and everything the shop made in it. */
export function fileModes(dataDir: string): void {
  const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8).padStart(4, "0");
  const entries: string[] = [`DATA_DIR ${mode(dataDir)}`];
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      const kind = fs.statSync(file).isDirectory() ? "/" : "";
      entries.push(`${path.relative(dataDir, file)}${kind} ${mode(file)}`);
      if (kind) walk(file);
    }
  };
  walk(dataDir);
  const modes = new Map<string, number>();
  for (const entry of entries) {
    const key = entry.replace(/^mail\/[^ ]+\.eml/, "mail/*.eml").replace(/^images\/.*? /, "images/… ");
    modes.set(key, (modes.get(key) ?? 0) + 1);
  }
  print("modes under DATA_DIR", [...modes].map(([entry, count]) => (count > 1 ? `${entry} (×${count})` : entry)).join(", "));
}
