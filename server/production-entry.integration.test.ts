import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverPerTest } from "../test/support/server-per-test.ts";

// The built server (`node build/node/main.js`, as a process manager, a platform's start command or
// a container without the Dockerfile's ENV runs it) is the production server, with or without
// NODE_ENV: Vite's development server, which serves the project's files, is never part of it.

const start = serverPerTest("storefront-entry-");

const project = process.cwd();

describe("the built server", () => {
  it.each([
    ["no NODE_ENV", undefined],
    ["NODE_ENV=development", "development"],
  ])("with %s serves the production build and none of the project's files", async (_name, nodeEnv) => {
    const { server, dataDir } = await start({ NODE_ENV: nodeEnv }, 0o755);
    expect(server.logs).toContainEqual(expect.objectContaining({ msg: "Storefront is listening", mode: "production" }));
    if (nodeEnv === "development") {
      expect(server.logs).toContainEqual(
        expect.objectContaining({ level: 40, msg: "NODE_ENV=development is ignored: the built server always runs in production mode (`npm run dev` is development mode)" }),
      );
    }

    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    for (const address of [
      `/@fs${project}/package.json`,
      `/@fs${dataDir}/storefront.sqlite`,
      "/server/config.ts",
      "/app/root.tsx",
      "/package.json",
      "/@vite/client",
    ]) {
      const answer = await fetch(`${server.url}${address}`);
      const body = await answer.text();
      expect([address, answer.status]).toEqual([address, 404]);
      expect(body).not.toContain("loadConfig");
      expect(body).not.toContain("SQLite format");
    }
    // At start, DATA_DIR (here one that existed at 0755) is made its user's only.
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it("is compiled without Vite", () => {
    const compiled = fs.readFileSync(path.join(project, "build", "node", "main.js"), "utf8");
    expect(compiled).not.toMatch(/from\s*["']vite["']|import\(\s*["']vite["']\s*\)/);
  });
});
