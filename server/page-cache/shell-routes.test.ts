import { describe, expect, it } from "vitest";
import type { BuildRoutes } from "../routing/build-routes.ts";
import { shellPages } from "./shell-routes.ts";

const shell = (value: boolean) => ({ handle: { shell: value } });

/** A route table shaped as React Router's build gives it: a root, pages under it, a layout with pages under it. */
const ROUTES: BuildRoutes = {
  root: { id: "root", path: "" },
  home: { id: "home", parentId: "root", index: true, module: shell(true) },
  cart: { id: "cart", parentId: "root", path: "cart", module: shell(true) },
  product: { id: "product", parentId: "root", path: "products/:productId", module: shell(true) },
  newProduct: { id: "newProduct", parentId: "root", path: "products/new", module: shell(false) },
  deals: { id: "deals", parentId: "root", path: "deals/:dealId", module: shell(false) },
  todaysDeals: { id: "todaysDeals", parentId: "root", path: "deals/today", module: shell(true) },
  orders: { id: "orders", parentId: "root", path: "orders", module: shell(false) },
  undeclared: { id: "undeclared", parentId: "root", path: "undeclared" },
  layout: { id: "layout", parentId: "root", path: "admin", module: { handle: { backOffice: true, shell: false } } },
  inner: { id: "inner", parentId: "layout", path: "products/:productId", module: shell(true) },
  optional: { id: "optional", parentId: "root", path: "lang?/about", module: shell(true) },
  splat: { id: "splat", parentId: "root", path: "*", module: shell(true) },
};

describe("the addresses that come from a personal shell", () => {
  const fromShell = shellPages(ROUTES);

  it("are those of the routes that declare shell: true, as the routes spell them", () => {
    for (const path of ["/", "/cart", "/products/1", "/products/men's%20clothing"]) expect(fromShell(path), path).toBe(true);
  });

  it("are never a route that says false or says nothing, nor one under a route that says false", () => {
    for (const path of ["/orders", "/undeclared", "/admin/products/1"]) expect(fromShell(path), path).toBe(false);
  });

  it("follow the route React Router renders: a static path ranks above a dynamic one, whichever says true", () => {
    expect(fromShell("/products/new")).toBe(false);
    expect(fromShell("/deals/today")).toBe(true);
    expect(fromShell("/deals/1")).toBe(false);
  });

  it("are never a data request, another case, a deeper path, a splat's or an optional segment's", () => {
    for (const path of ["/cart.data", "/_root.data", "/CART", "/%63art", "/cart/", "/products/", "/products/1/x", "/about", "/en/about", "/anything"]) expect(fromShell(path), path).toBe(false);
  });

  it("are none without a route table", () => {
    expect(shellPages({})("/")).toBe(false);
  });
});
