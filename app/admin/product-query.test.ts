import { describe, expect, it } from "vitest";
import { productListHref, productQuery } from "./product-query.ts";

describe("the product list's address", () => {
  it("reads what it understands and takes the default for the rest", () => {
    expect(productQuery(new URLSearchParams("q=ring&category=jewelery&sort=-stock&page=3"))).toEqual({ q: "ring", category: "jewelery", sort: "-stock", page: 3 });
    expect(productQuery(new URLSearchParams("sort=price&page=-2"))).toEqual({ q: "", category: "", sort: "id", page: 1 });
    expect(productQuery(new URLSearchParams("sort=constructor&page=1.5"))).toEqual({ q: "", category: "", sort: "id", page: 1 });
  });

  it("writes an address back without its defaults", () => {
    expect(productListHref({ q: "", category: "", sort: "id", page: 1 })).toBe("/admin/products");
    expect(productListHref({ q: "gold ring", category: "jewelery", sort: "stock", page: 2 })).toBe("/admin/products?q=gold+ring&category=jewelery&sort=stock&page=2");
  });
});
