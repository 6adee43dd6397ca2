import fs from "node:fs";
import { describe, expect, it } from "vitest";

// deploy/Dockerfile compiles better-sqlite3 in its build stage and runs it in the next: both stages
// need the same Node, one package.json's engines admit, and the checkout's node_modules (built for
// the Node it runs) must stay out of the build context.

const dockerfile = fs.readFileSync("deploy/Dockerfile", "utf8");
const engines = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node;

/** Whether an engines range ("^20.19.0 || ^24.0.0", ">=20.19") admits some release of a Node major. */
function admitsMajor(range: string, major: number): boolean {
  return range.split("||").some((alternative) => {
    const match = /^\s*(\^|~|>=)?\s*(\d+)(\.[\dx*]+)*\s*$/.exec(alternative);
    if (!match) throw new Error(`engines.node alternative "${alternative.trim()}" is not one this test reads (^M.m.p, ~M.m.p, >=M.m, M.x)`);
    return match[1] === ">=" ? major >= Number(match[2]) : major === Number(match[2]);
  });
}

describe("deploy/Dockerfile", () => {
  const images = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]);

  it("builds and runs on one Node image, of a major package.json's engines admit", () => {
    expect(images).toHaveLength(2);
    expect(new Set(images).size, images.join(", ")).toBe(1);
    const major = Number(/^node:(\d+)-/.exec(images[0] ?? "")?.[1]);
    expect(major, images[0]).toBeGreaterThanOrEqual(20);
    expect(admitsMajor(engines, major), `${images[0]} against engines ${engines}`).toBe(true);
  });

  it("leaves the checkout's node_modules and build out of its context", () => {
    const ignored = fs.readFileSync(".dockerignore", "utf8").split("\n").map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "build", ".env", "data"]));
  });
});
