import { describe, expect, it } from "vitest";
import { AffectedPages } from "./affected-pages.ts";
import type { ListedProduct } from "../catalogue/catalogue.ts";

const product = (id: number, category: string, stock: number): ListedProduct => ({ id, priceCents: 100, category, rating: { rate: 0, count: 0 }, stock });
// As catalogues list them: by ascending id.
const before = [product(2, "men's clothing", 100), product(8, "jewelery", 3), product(13, "electronics", 100)];
const withEight = (eight: ListedProduct) => [before[0]!, eight, before[2]!];
const sale = (ids: number[]) => ({ ids, stockOnly: true });
const KEYS = ["/", "/?utm=1", "/products/8", "/products/008", "/products/2", "/results/jewelery", "/results/men's%20clothing", "/results/electronics", "/search?q=ring", "/cart", "/auth", "/language", "/nowhere"];

describe("the pages a catalogue change affects", () => {
  it("a sell-out of product 8 drops its page, the home page, its category, search and the cart, and nothing else", () => {
    const pages = new AffectedPages(before);
    const after = withEight(product(8, "jewelery", 0));
    expect(KEYS.filter(pages.of(sale([8]), after))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/search?q=ring", "/cart"]);
  });

  it("drops every spelling React Router renders as the same page: letter case, a trailing slash, percent-encoding", () => {
    const pages = new AffectedPages(before);
    const after = withEight(product(8, "jewelery", 0));
    const spellings = ["/Products/8", "/products/8/", "/%70roducts/8", "/RESULTS/Jewelery/", "/CART", "/cart/", "//", "/Products/2", "/results/Electronics"];
    expect(spellings.filter(pages.of(sale([8]), after))).toEqual(["/Products/8", "/products/8/", "/%70roducts/8", "/RESULTS/Jewelery/", "/CART", "/cart/", "//"]);
  });

  it("a sale that leaves plenty drops only the cart", () => {
    const pages = new AffectedPages(before);
    const after = [product(2, "men's clothing", 99), ...before.slice(1)];
    expect(KEYS.filter(pages.of(sale([2]), after))).toEqual(["/cart"]);
  });

  it("a price change finds a category whose name is encoded in the address", () => {
    const pages = new AffectedPages(before);
    const after = [{ ...before[0]!, priceCents: 99 }, ...before.slice(1)];
    expect(KEYS.filter(pages.of({ ids: [2] }, after))).toContain("/results/men's%20clothing");
  });

  it("an edit of a product's words or picture drops its pages, though its listing facts are as they were", () => {
    const pages = new AffectedPages(before);
    expect(KEYS.filter(pages.of({ ids: [2] }, before))).toEqual(["/", "/?utm=1", "/products/2", "/results/men's%20clothing", "/search?q=ring", "/cart"]);
  });

  it("an archived product (gone from the list) drops its page and its category's results, and moving one drops both categories", () => {
    const archived = new AffectedPages(before);
    expect(KEYS.filter(archived.of({ ids: [8] }, [before[0]!, before[2]!]))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/search?q=ring", "/cart"]);
    const moved = new AffectedPages(before);
    const after = withEight({ ...before[1]!, category: "electronics" });
    expect(KEYS.filter(moved.of({ ids: [8] }, after))).toEqual(["/", "/?utm=1", "/products/8", "/products/008", "/results/jewelery", "/results/electronics", "/search?q=ring", "/cart"]);
  });

  it("a product it has not seen yet counts as changed; a product the change does not name is not looked at", () => {
    const pages = new AffectedPages();
    expect(KEYS.filter(pages.of(sale([2]), before))).toContain("/products/2");
    expect(KEYS.filter(pages.of(sale([2]), before))).toEqual(["/cart"]);
    const after = withEight(product(8, "jewelery", 0));
    expect(KEYS.filter(pages.of(sale([2]), after))).toEqual(["/cart"]);
  });

  it("drops every page and order of a list the change shows on, and no other category's", () => {
    const pages = new AffectedPages(before);
    const after = withEight(product(8, "jewelery", 0));
    const lists = ["/?page=2", "/?page=3&utm=1", "/results/jewelery?sort=price-asc&page=2", "/results/jewelery?page=4", "/results/electronics?sort=price-asc&page=2", "/results/electronics?page=2"];
    expect(lists.filter(pages.of(sale([8]), after))).toEqual(["/?page=2", "/?page=3&utm=1", "/results/jewelery?sort=price-asc&page=2", "/results/jewelery?page=4"]);
  });

  it("a change without ids (a remote refresh) drops everything", () => {
    expect(KEYS.filter(new AffectedPages(before).of({ ids: null }, before))).toEqual(KEYS);
    expect(KEYS.filter(new AffectedPages(before).of(undefined, before))).toEqual(KEYS);
  });
});
