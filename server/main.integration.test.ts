import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("start-up with a malformed variable", () => {
  it.each([
    ["tsx", ["node_modules/.bin/tsx", "server/main.ts"]],
    ["npm start", ["npm", "start", "--silent"]],
  ])("exits at once with one line naming DATABASE_URL (%s)", (_name, [command, ...args]) => {
    const result = spawnSync(command!, args, {
      env: { ...process.env, DATABASE_URL: "nonsense" },
      encoding: "utf8",
      // A ceiling: a start-up that went on to build or listen would be stopped here, and fail below.
      timeout: 10_000,
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(1);
    const ours = result.stderr.split("\n").filter((line) => line.includes("DATABASE_URL"));
    expect(ours).toEqual(['Invalid environment variable DATABASE_URL: must be a postgres:// or postgresql:// URL (got "nonsense")']);
    expect(result.stdout).not.toContain("vite");
  });
});

describe("npm start on a built checkout", () => {
  it("serves the compiled build at once, without building again or a TypeScript loader", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-start-"));
    const child = spawn("npm", ["start", "--silent"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let serverPid = 0;
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /"pid":(\d+),.*"url":"([^"]+)",.*"mode":"production","msg":"Storefront is listening"/.exec(output);
          if (!listening) return;
          serverPid = Number(listening[1]);
          resolve(listening[2]!);
        });
        child.on("exit", (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
      });
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      // The build is current (npm test has just built it), so nothing was built...
      expect(output).not.toContain("react-router build");
      expect(output).not.toContain("vite");
      // ...and the server is the compiled build run by plain node.
      const command = fs.readFileSync(`/proc/${serverPid}/cmdline`, "utf8").split("\0");
      expect(command[1]).toBe("scripts/start.js");
      expect(command.join(" ")).not.toContain("tsx");
    } finally {
      if (serverPid) process.kill(serverPid, "SIGTERM");
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
