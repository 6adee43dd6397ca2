import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("start-up with a malformed variable", () => {
  it.each([
    ["tsx", ["node_modules/.bin/tsx", "server/main.ts"]],
    ["npm start", ["npm", "start", "--silent"]],
  ])("exits at once with one line naming DATABASE_URL (%s)", (_name, [command, ...args]) => {
    const started = Date.now();
    const result = spawnSync(command!, args, {
      env: { ...process.env, DATABASE_URL: "nonsense" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    const ours = result.stderr.split("\n").filter((line) => line.includes("DATABASE_URL"));
    expect(ours).toEqual(['Invalid environment variable DATABASE_URL: must be a postgres:// or postgresql:// URL (got "nonsense")']);
    expect(result.stdout).not.toContain("vite");
  });
});
