import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIGHT_STREAM, ONCE, REWRITES, rewrite } from "./react-router-once.ts";

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

  it("reads a light stream as a ReadableStream of the same start is read", async () => {
    type Start = (controller: { enqueue(chunk: string): void; close(): void; error(error: unknown): void }) => unknown;
    type Reader = { read(): Promise<{ done: boolean; value?: string }>; releaseLock(): void };
    const Light = new Function(`${LIGHT_STREAM}; return StorefrontLightStream;`)() as new (source: { start: Start }) => { getReader(): Reader };
    /** Everything a stream of `start` gives, read as app/hydration-data.server.ts reads it (a new reader after the first read). */
    async function readAll(stream: { getReader(): Reader }): Promise<unknown[]> {
      const seen: unknown[] = [];
      let reader = stream.getReader();
      for (let turn = 0; turn < 10; turn++) {
        try {
          const read = await reader.read();
          seen.push(read);
          if (read.done) break;
        } catch (error) {
          seen.push(["error", String(error)]);
          break;
        }
        reader.releaseLock();
        reader = stream.getReader();
      }
      return seen;
    }
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const starts: Record<string, Start> = {
      "one chunk, then closed (a page's data)": async (c) => {
        await Promise.resolve();
        c.enqueue("[1]\n");
        c.close();
      },
      "chunks at once and later (deferred data)": async (c) => {
        c.enqueue("a");
        await tick();
        c.enqueue("b");
        await tick();
        c.enqueue("c");
        c.close();
      },
      "a start that fails after a chunk": async (c) => {
        c.enqueue("a");
        await tick();
        throw new Error("encoding failed");
      },
      "an error reported through the controller": async (c) => {
        await tick();
        c.error(new Error("aborted"));
      },
      "nothing, closed": (c) => c.close(),
    };
    for (const [name, start] of Object.entries(starts)) {
      const light = await readAll(new Light({ start }));
      const web = await readAll(new ReadableStream({ start: start as never }) as never);
      expect(light, name).toEqual(web);
    }
    const throws: Start = () => {
      throw new Error("at once");
    };
    expect(() => new Light({ start: throws })).toThrow("at once");
    expect(() => new ReadableStream({ start: throws as never })).toThrow("at once");
    // A chunk after the end is refused, as a ReadableStream refuses it (encode never does it).
    const late: Start = (c) => (c.close(), c.enqueue("late"));
    expect(() => new Light({ start: late })).toThrow(TypeError);
    expect(() => new ReadableStream({ start: late as never })).toThrow(TypeError);
  });

  it("gives the document's data a light stream and every other turbo-stream (data answers) a web one", () => {
    const byName = (part: string) => REWRITES.find(({ name }) => name.includes(part))!;
    expect(byName("document's hydration data").replace).toContain("serverMode, true)");
    expect(byName("choice of stream").replace).toContain("storefrontLight = false");
    expect(byName("choice passed to encode").replace).toContain("storefrontLight,");
    expect(byName("encode on a light stream").replace).toContain("options?.storefrontLight ? StorefrontLightStream : ReadableStream");
  });

  it("matches an address once per routes object and gives every caller matches of its own", () => {
    const { replace, helper } = REWRITES.find(({ name }) => name.startsWith("route matching"))!;
    expect(Array.isArray(helper) && helper.includes(ONCE)).toBe(true);
    type Match = { params: Record<string, string>; pathname: string; pathnameBase: string; route: { id: string } };
    const calls: unknown[][] = [];
    // React Router's matching, stood in for: what it is asked, and one params object shared by a result's matches, as it makes them.
    const inner = (...args: unknown[]): Match[] | null => {
      calls.push(args);
      const location = args[1];
      const path = typeof location === "string" ? location : (location as { pathname: string }).pathname;
      if (!path.startsWith("/products/")) return null;
      const params = { productId: path.split("/")[2]! };
      return [
        { params, pathname: "/", pathnameBase: "/", route: { id: "root" } },
        { params, pathname: path, pathnameBase: path, route: { id: "routes/product" } },
      ];
    };
    const matchRoutes = new Function("inner", `${(helper as string[]).join("")}${replace} return inner(...arguments); }; return matchRoutesImpl;`)(inner) as (
      routes: object,
      location: string | { pathname: string },
      basename?: string,
      allowPartial?: boolean,
      branches?: object,
    ) => Match[] | null;

    const routes = {};
    const first = matchRoutes(routes, "/products/1", "/")!;
    const again = matchRoutes(routes, { pathname: "/products/1" }, "/")!;
    expect(calls).toHaveLength(1);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(again[0]).not.toBe(first[0]);
    // A caller changing its matches changes no one else's.
    first[1]!.params.productId = "changed";
    expect(first[0]!.params.productId).toBe("changed");
    expect(matchRoutes(routes, "/products/1", "/")![1]!.params.productId).toBe("1");
    expect(calls).toHaveLength(1);

    // Another address, basename, allowPartial or routes object is matched afresh; no match is kept too.
    matchRoutes(routes, "/products/2", "/");
    matchRoutes(routes, "/products/1", "/shop");
    matchRoutes(routes, "/products/1", "/", true);
    matchRoutes({}, "/products/1", "/");
    expect(calls).toHaveLength(5);
    expect(matchRoutes(routes, "/nowhere", "/")).toBeNull();
    expect(matchRoutes(routes, "/nowhere", "/")).toBeNull();
    expect(calls).toHaveLength(6);
    // Ranked branches handed in are the key when given.
    const branches = {};
    matchRoutes(routes, "/products/1", "/", false, branches);
    matchRoutes({}, "/products/1", "/", false, branches);
    expect(calls).toHaveLength(7);
    // An address string with a query or hash goes to React Router as it is, every time.
    matchRoutes(routes, "/products/1?x=1", "/");
    matchRoutes(routes, "/products/1?x=1", "/");
    expect(calls.slice(-2).map((args) => args[1])).toEqual(["/products/1?x=1", "/products/1?x=1"]);
  });

  it("reads the build-time request flag once, and still honours it", () => {
    const { replace } = REWRITES.find(({ name }) => name.startsWith("the build-time request flag"))!;
    const headerOf = (env: Record<string, string>) => {
      let reads = 0;
      const counted = new Proxy(env, { get: (target, key) => (reads++, Reflect.get(target, key)) });
      const get = new Function("process", `${replace}; return getBuildTimeHeader;`)({ env: counted }) as (request: Request, name: string) => string | null;
      return { get, reads: () => reads };
    };
    const request = new Request("http://shop.test/", { headers: { "X-React-Router-SPA-Mode": "yes" } });
    const running = headerOf({});
    expect(running.get(request, "X-React-Router-SPA-Mode")).toBeNull();
    const readsAfterFirst = running.reads();
    expect(running.get(request, "X-React-Router-SPA-Mode")).toBeNull();
    expect(running.reads()).toBe(readsAfterFirst);
    expect(headerOf({ IS_RR_BUILD_REQUEST: "yes" }).get(request, "X-React-Router-SPA-Mode")).toBe("yes");
  });

  it("keys the document's handoff JSON by all that differs between documents of one build", () => {
    const { find, replace } = REWRITES.find(({ name }) => name.includes("handoff JSON"))!;
    expect(find).toContain("...baseServerHandoff,");
    expect(replace).toContain('storefrontOnce(build, JSON.stringify(["handoff", isSpaMode2, criticalCss ?? null])');
  });

  it("leaves a file without any of the rewritten code as it is", () => {
    expect(rewrite("export const x = 1;")).toEqual({ code: "export const x = 1;", applied: [] });
  });
});
