import { describe, expect, it } from "vitest";
import { AffectedPages } from "./affected-pages.ts";
import type { Product } from "../catalogue/product.ts";

const product = (id: number, category: string, stock: number): Product => ({ id, title: `P${id}`, priceCents: 100, description: "", category, image: "/x.svg", rating: { rate: 0, count: 0 }, stock });
const before = [product(8, "jewelery", 3), product(2, "men's clothing", 100), product(13, "electronics", 100)];
const KEYS = ["/", "/?utm=1", "/products/8", "/products/008", "/products/2", "/results/jewelery", "/results/men's%20clothing", "/results/electronics", "/search?q=ring", "/cart", "/auth", "/language", "/nowhere"];

describe("the pages a catalogue change affects", () => {
  it("a sell-out of product 8 drops its page, the home page, its category, search and the cart, and nothing else", () => {
    const pages = new AffectedPages(before);
    const after = [product(8, "jewelery", 0), ...before.slice(1)];
    expect(KEYS.filter(pages.of({ ids: [8] }, after))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/search?q=ring", "/cart"]);
  });

  it("drops every spelling React Router renders as the same page: letter case, a trailing slash, percent-encoding", () => {
    const pages = new AffectedPages(before);
    const after = [product(8, "jewelery", 0), ...before.slice(1)];
    const spellings = ["/Products/8", "/products/8/", "/%70roducts/8", "/RESULTS/Jewelery/", "/CART", "/cart/", "//", "/Products/2", "/results/Electronics"];
    expect(spellings.filter(pages.of({ ids: [8] }, after))).toEqual(["/Products/8", "/products/8/", "/%70roducts/8", "/RESULTS/Jewelery/", "/CART", "/cart/", "//"]);
  });

  it("a sale that leaves plenty drops only the cart", () => {
    const pages = new AffectedPages(before);
    const after = [before[0]!, product(2, "men's clothing", 99), before[2]!];
    expect(KEYS.filter(pages.of({ ids: [2] }, after))).toEqual(["/cart"]);
  });

  it("a price change finds a category whose name is encoded in the address", () => {
    const pages = new AffectedPages(before);
    const after = [before[0]!, { ...before[1]!, priceCents: 99 }, before[2]!];
    expect(KEYS.filter(pages.of({ ids: [2] }, after))).toContain("/results/men's%20clothing");
  });

  it("an archived product (gone from the list) drops its page and its category's results, and moving one drops both categories", () => {
    const archived = new AffectedPages(before);
    expect(KEYS.filter(archived.of({ ids: [8] }, before.slice(1)))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/search?q=ring", "/cart"]);
    const moved = new AffectedPages(before);
    const after = [{ ...before[0]!, category: "electronics" }, ...before.slice(1)];
    expect(KEYS.filter(moved.of({ ids: [8] }, after))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/results/electronics", "/search?q=ring", "/cart"]);
  });

  it("a product it has not seen yet counts as changed; a product the change does not name is not looked at", () => {
    const pages = new AffectedPages();
    expect(KEYS.filter(pages.of({ ids: [2] }, before))).toContain("/products/2");
    expect(KEYS.filter(pages.of({ ids: [2] }, before))).toEqual(["/cart"]);
    const after = [product(8, "jewelery", 0), ...before.slice(1)];
    expect(KEYS.filter(pages.of({ ids: [2] }, after))).toEqual(["/cart"]);
  });

  it("drops every page and order of a list the change shows on, and no other category's", () => {
    const pages = new AffectedPages(before);
    const after = [product(8, "jewelery", 0), ...before.slice(1)];
    const lists = ["/?page=2", "/?page=3&utm=1", "/results/jewelery?sort=price-asc&page=2", "/results/jewelery?page=4", "/results/electronics?sort=price-asc&page=2", "/results/electronics?page=2"];
    expect(lists.filter(pages.of({ ids: [8] }, after))).toEqual(["/?page=2", "/?page=3&utm=1", "/results/jewelery?sort=price-asc&page=2", "/results/jewelery?page=4"]);
  });

  it("a change without ids (a remote refresh) drops everything", () => {
    expect(KEYS.filter(new AffectedPages(before).of({ ids: null }, before))).toEqual(KEYS);
    expect(KEYS.filter(new AffectedPages(before).of(undefined, before))).toEqual(KEYS);
  });
});
