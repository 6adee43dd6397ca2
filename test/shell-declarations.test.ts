import { describe, expect, it } from "vitest";
import routeConfig from "../app/routes.ts";
import type { BuildRoutes } from "../server/routing/build-routes.ts";
import { shellPages } from "../server/page-cache/index.ts";

interface ConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigEntry[];
}

/** The route table as the build makes it of app/routes.ts, each route with its module's own exports. */
async function sourceRoutes(): Promise<BuildRoutes> {
  const routes: BuildRoutes = { root: { id: "root", path: "" } };
  const add = async (entries: readonly ConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.tsx?$/, "");
      const file = new URL(`../app/${entry.file}`, import.meta.url).href;
      const module = (await import(file)) as { handle?: unknown };
      routes[id] = { id, parentId, path: entry.path, index: entry.index, module };
      await add(entry.children ?? [], id);
    }
  };
  await add(routeConfig, "root");
  return routes;
}

describe("each page route's shell declaration", () => {
  it("is there, true or false, on every route of app/routes.ts", async () => {
    const routes = Object.values(await sourceRoutes()).filter((route) => route!.id !== "root");
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) expect(typeof (route!.module?.handle as { shell?: unknown } | undefined)?.shell, route!.id).toBe("boolean");
  });

  it("gives signed-in visitors the catalogue's pages, the cart and the language page from a shell", async () => {
    const fromShell = shellPages(await sourceRoutes());
    for (const path of ["/", "/products/1", "/results/men's%20clothing", "/search", "/cart", "/language"]) expect(fromShell(path), path).toBe(true);
  });

  it("never a page that reads the user, a data request, another case or a deeper path", async () => {
    const fromShell = shellPages(await sourceRoutes());
    const never = ["/orders", "/payment", "/auth", "/auth/reset", "/sign-out", "/admin", "/admin/products/1", "/products/1.data", "/_root.data", "/CART", "/Products/1", "/products/1/", "/products/1/x", "/products/", "/nowhere"];
    for (const path of never) expect(fromShell(path), path).toBe(false);
  });
});
