import { describe, expect, it } from "vitest";
import { CatalogueUnavailableError, type Catalogue } from "./catalogue.ts";
import { pageOf, sortProducts, SortedLists } from "./listing.ts";
import { catalogueForPages } from "./pages.ts";
import type { Product } from "./product.ts";
import { memoryLogger } from "../../test/support/logger.ts";

const product = (id: number, priceCents: number, rate: number, count: number, category = "electronics"): Product => ({
  id,
  title: `P${id}`,
  priceCents,
  description: "",
  category,
  image: "/x.svg",
  rating: { rate, count },
});
const products = [product(1, 500, 4, 10), product(2, 100, 4.5, 3), product(3, 500, 4.5, 30, "jewelery"), product(4, 900, 1, 1), product(5, 100, 4, 10)];
const ids = (list: readonly Product[]) => list.map((p) => p.id);

describe("sorting a list", () => {
  it("keeps the catalogue's order (by id) for the default, the very array", () => {
    expect(sortProducts(products, "id")).toBe(products);
  });

  it("sorts by price up and down, and by rating (then reviews), ties in id order", () => {
    expect(ids(sortProducts(products, "price-asc"))).toEqual([2, 5, 1, 3, 4]);
    expect(ids(sortProducts(products, "price-desc"))).toEqual([4, 1, 3, 2, 5]);
    expect(ids(sortProducts(products, "rating"))).toEqual([3, 2, 1, 5, 4]);
    expect(ids(products)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("a page of a list", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => product(i + 1, 100, 0, 0));

  it("cuts 48 a page: 100 products are pages of 48, 48 and 4", () => {
    expect(pageOf(hundred, 1, 48)).toMatchObject({ page: 1, pages: 3, total: 100 });
    expect(ids(pageOf(hundred, 2, 48).products)).toEqual(Array.from({ length: 48 }, (_, i) => i + 49));
    expect(ids(pageOf(hundred, 3, 48).products)).toEqual([97, 98, 99, 100]);
    expect(pageOf(hundred, 4, 48).products).toEqual([]);
  });

  it("gives an empty list one empty page, and a list of exactly 48 one page", () => {
    expect(pageOf([], 1, 48)).toEqual({ products: [], page: 1, pages: 1, total: 0 });
    expect(pageOf(hundred.slice(0, 48), 1, 48).pages).toBe(1);
    expect(pageOf(hundred.slice(0, 49), 1, 48).pages).toBe(2);
  });
});

describe("sorted lists kept per version of the catalogue", () => {
  it("sorts a category once per catalogue array, and again once the catalogue answers another", () => {
    const lists = new SortedLists();
    const first = lists.of(products, "electronics", "price-asc");
    expect(ids(first)).toEqual([2, 5, 1, 4]);
    expect(lists.of(products, "electronics", "price-asc")).toBe(first);
    expect(ids(lists.of(products, null, "price-asc"))).toEqual([2, 5, 1, 3, 4]);
    const changed = [...products.slice(0, 4), product(5, 1_000, 4, 10)];
    expect(ids(lists.of(changed, "electronics", "price-asc"))).toEqual([2, 1, 4, 5]);
  });

  it("keeps nothing for a category without products", () => {
    const lists = new SortedLists();
    const none = lists.of(products, "made-up", "rating");
    expect(none).toEqual([]);
    expect(lists.of(products, "made-up", "rating")).not.toBe(none);
  });
});

describe("the pages' catalogue port", () => {
  const catalogueOf = (listed: () => Promise<Product[]>): Pick<Catalogue, "listed" | "byIds" | "byId"> => ({
    listed,
    byIds: async (ids) => ids.flatMap((id) => products.find((p) => p.id === id) ?? []),
    byId: async (id) => products.find((p) => p.id === id) ?? null,
  });

  it("answers a page of a category in the asked order", async () => {
    const pages = catalogueForPages(catalogueOf(async () => products), memoryLogger().log);
    const page = await pages.page("electronics", "price-desc", 2, 3);
    expect({ ...page, products: ids(page.products) }).toEqual({ products: [5], page: 2, pages: 2, total: 4 });
  });

  it("answers an empty first page while the catalogue is unavailable", async () => {
    const pages = catalogueForPages(
      catalogueOf(() => Promise.reject(new CatalogueUnavailableError("down"))),
      memoryLogger().log,
    );
    expect(await pages.page(null, "id", 1, 48)).toEqual({ products: [], page: 1, pages: 1, total: 0 });
  });
});
