import { describe, expect, it } from "vitest";
import { afterFirstPaint } from "./after-first-paint.server.ts";
import { ROUTES_SET } from "./routes-set.ts";

/** The shape of React Router 7's closing module script (its <Scripts>), the manifest shortened. */
const ROUTER_SCRIPT = `;
import * as route0 from "/assets/root-B-JyuoFR.js";
import * as route1_clientLoader from "/assets/product-clientLoader.js";
import * as route1_main from "/assets/product-xrTmSDcB.js";
const route1 = {...route1_clientLoader,...route1_main};
  window.__reactRouterManifest = {
  "entry": { "module": "/assets/entry.client-WYKjVSTW.js", "imports": [] },
  "routes": { "root": { "module": "/assets/root-B-JyuoFR.js", "imports": ["import \\"/assets/x.js\\";"] } }
};
  window.__reactRouterRouteModules = {"root":route0,"routes/product":route1};

import("/assets/entry.client-WYKjVSTW.js");`;

/** A browser just enough for the rewritten script: its paint observer, its timers and its imports. */
function browser({ paintTiming = true, hidden = false } = {}) {
  const loaded: string[] = [];
  const pending: (() => void)[] = [];
  let observer: ((list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void) | undefined;
  let timer: (() => void) | undefined;
  const window: Record<string, unknown> = {};
  const env = {
    window,
    document: { visibilityState: hidden ? "hidden" : "visible" },
    setTimeout: (callback: () => void) => (timer = callback),
    PerformanceObserver: Object.assign(
      function (this: { observe(): void }, callback: typeof observer) {
        observer = callback;
        this.observe = () => {};
      },
      { supportedEntryTypes: paintTiming ? ["paint", "resource"] : ["resource"] },
    ),
    load: (url: string) =>
      new Promise((resolve) => {
        loaded.push(url);
        pending.push(() => resolve({ url }));
      }),
  };
  return {
    window,
    loaded,
    run(script: string) {
      // `import(` is syntax a test cannot stub: the same calls go to `load` instead.
      new Function(...Object.keys(env), script.replaceAll("import(", "load("))(...Object.values(env));
    },
    paint(name: string) {
      observer?.({ getEntriesByName: (wanted) => (wanted === name ? [{}] : []) }, { disconnect: () => (observer = undefined) });
    },
    fireTimer: () => timer?.(),
    /** Answers the imports asked for, and those they lead to, until a turn of the event loop asks for none. */
    async settle() {
      do {
        for (const resolve of pending.splice(0)) resolve();
        // The script runs on promises alone: a turn of the event loop lets all it can do run.
        await new Promise((resolve) => setImmediate(resolve));
      } while (pending.length > 0);
    },
  };
}

describe("afterFirstPaint", () => {
  it("imports nothing until the first contentful paint, then every module at once, and the entry last", async () => {
    const page = browser();
    page.run(afterFirstPaint(ROUTER_SCRIPT));
    let routeModulesWhenSet: unknown = "not yet";
    void (page.window[ROUTES_SET] as Promise<unknown>).then(() => (routeModulesWhenSet = page.window.__reactRouterRouteModules));
    await page.settle();
    expect(page.loaded).toEqual([]);
    page.paint("first-paint");
    await page.settle();
    expect(page.loaded).toEqual([]);

    page.paint("first-contentful-paint");
    await Promise.resolve();
    expect(page.loaded).toEqual(["/assets/root-B-JyuoFR.js", "/assets/product-clientLoader.js", "/assets/product-xrTmSDcB.js"]);
    expect(page.window.__reactRouterRouteModules).toBeUndefined();
    await page.settle();
    expect(page.loaded.at(-1)).toBe("/assets/entry.client-WYKjVSTW.js");
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { url: "/assets/root-B-JyuoFR.js" },
      "routes/product": { url: "/assets/product-xrTmSDcB.js" },
    });
    expect(routeModulesWhenSet).toBe(page.window.__reactRouterRouteModules);
    expect((page.window.__reactRouterManifest as { routes: { root: { imports: string[] } } }).routes.root.imports).toEqual(['import "/assets/x.js";']);
  });

  it("imports at once where paint timing is missing or the tab is hidden, and after a second without a paint", async () => {
    for (const options of [{ paintTiming: false }, { hidden: true }]) {
      const page = browser(options);
      page.run(afterFirstPaint(ROUTER_SCRIPT));
      await Promise.resolve();
      expect(page.loaded).toHaveLength(3);
    }
    const page = browser();
    page.run(afterFirstPaint(ROUTER_SCRIPT));
    page.fireTimer();
    await Promise.resolve();
    expect(page.loaded).toHaveLength(3);
    page.paint("first-contentful-paint");
    await page.settle();
    expect(page.loaded).toHaveLength(4);
  });

  it("loads imports for their effects first, in order, and leaves a script without static imports as it is", async () => {
    const page = browser();
    page.run(afterFirstPaint('import "/hmr-runtime.js";import "/assets/manifest.js";\nimport * as route0 from "/assets/root.js";\nwindow.modules = [route0];'));
    page.paint("first-contentful-paint");
    await Promise.resolve();
    expect(page.loaded).toEqual(["/hmr-runtime.js"]);
    await page.settle();
    expect(page.loaded).toEqual(["/hmr-runtime.js", "/assets/manifest.js", "/assets/root.js"]);
    expect(page.window.modules).toEqual([{ url: "/assets/root.js" }]);

    for (const script of [" ", 'import("/assets/entry.js");', 'window.x = "import \\"/a.js\\";";']) expect(afterFirstPaint(script)).toBe(script);
  });
});
