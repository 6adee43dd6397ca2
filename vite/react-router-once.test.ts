import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ONCE, REWRITES, rewrite } from "./react-router-once.ts";

/** React Router's production files, as installed (the pinned version). */
function productionFiles(): Array<{ file: string; code: string }> {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve("react-router/package.json")), "dist", "production");
  return fs
    .readdirSync(dist)
    // The React Server Components entries carry copies of some rewritten code; the bundle never loads them.
    .filter((file) => file.endsWith(".mjs") && !file.startsWith("index-react-server"))
    .map((file) => ({ file, code: fs.readFileSync(path.join(dist, file), "utf8") }));
}

describe("React Router's per-render work made once (vite/react-router-once.ts)", () => {
  it("finds each rewrite exactly once in the installed React Router", () => {
    const applied = productionFiles().flatMap(({ code }) => rewrite(code).applied);
    expect(applied.sort()).toEqual(REWRITES.map(({ name }) => name).sort());
  });

  it("makes each value once per owner and key, and again for another key", () => {
    const once = new Function(`${ONCE}; return storefrontOnce;`)() as <T>(owner: object, key: string, make: () => T) => T;
    const owner = {};
    let made = 0;
    const make = () => ({ made: ++made });
    const first = once(owner, "a", make);
    expect(once(owner, "a", make)).toBe(first);
    expect(once(owner, "b", make)).not.toBe(first);
    expect(once({}, "a", make)).not.toBe(first);
    expect(made).toBe(3);
  });

  it("answers isResponse as React Router does, without asking a Response for its body", () => {
    const { find, replace } = REWRITES.find(({ name }) => name.startsWith("isResponse"))!;
    const [original, rewritten] = [find, replace].map((code) => new Function(`${code}; return isResponse;`)() as (value: unknown) => boolean);
    const values = [null, undefined, 3, "text", {}, { status: 200, headers: {} }, { status: 200, statusText: "", headers: {}, body: null }, new Response("x"), new Response(null, { status: 302 })];
    for (const value of values) expect(rewritten!(value)).toBe(original!(value));
    class LightResponse extends Response {
      override get body(): never {
        throw new Error("asked for its body");
      }
    }
    expect(rewritten!(new LightResponse("x"))).toBe(true);
  });

  it("leaves the module preloads out of the server's <Scripts>, and only them", () => {
    const { find, replace } = REWRITES.find(({ name }) => name.includes("module preloads"))!;
    expect(find.match(/rel: "modulepreload"/g)).toHaveLength(3);
    expect(replace).not.toContain("modulepreload");
    expect(replace).not.toContain("getModuleLinkHrefs");
    // What else <Scripts> renders stays: the import map (with subresource integrity) and the scripts.
    expect(replace).toContain('type: "importmap"');
    expect(replace.endsWith("  ) : null, initialScripts);\n}")).toBe(true);
    expect(find.startsWith("  let preloads = ")).toBe(true);
  });

  it("leaves a file without any of the rewritten code as it is", () => {
    expect(rewrite("export const x = 1;")).toEqual({ code: "export const x = 1;", applied: [] });
  });
});
