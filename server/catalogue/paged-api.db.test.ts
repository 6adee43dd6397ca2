import { describe, expect, it } from "vitest";
import { testApp } from "../../test/support/app.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import type { FakeStoreProduct } from "./product.ts";
import { type SeedEntry, seedCatalogue } from "./seed.ts";

// A catalogue of 2,500 products in the shop's database: the catalogue API answers at most 1,000
// products, and links the rest in pages (RFC 8288 Link headers).

const PUBLIC_URL = "https://shop.example";
const COUNT = 2500;
/** Two products in three are clothes (1,667), the third jewels (833). */
const categoryOf = (id: number) => (id % 3 === 2 ? "jewelery" : "men's clothing");

const entries: SeedEntry[] = Array.from({ length: COUNT }, (_, i) => ({
  id: i + 1,
  title: `Product ${i + 1}`,
  price: 1 + i / 100,
  description: "Made in quantity.",
  category: categoryOf(i + 1),
  image: "backpack.svg",
  rating: { rate: 4, count: 10 },
  stock: 5,
}));
const range = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe.each(testEngines())("the catalogue API in pages, on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function shop() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    await seedCatalogue(database, entries);
    const { app, services } = await testApp({ database, catalogue: "database", env: { PUBLIC_URL } });
    cleanup(async () => services.orderFeed.closeAll());
    const get = async (path: string) => {
      const response = await app.request(path);
      const body = (await response.json()) as FakeStoreProduct[] | { error: string };
      const ids = Array.isArray(body) ? body.map((p) => p.id) : body;
      return { status: response.status, link: response.headers.get("link"), headers: response.headers, ids };
    };
    return Object.assign(get, { app });
  }

  it("answers the first 1,000 with a link to the next page; the last page has no next; past it, []", async () => {
    const get = await shop();
    const first = await get("/api/catalogue/products");
    expect(first.status).toBe(200);
    expect(first.ids).toEqual(range(1, 1000));
    expect(first.link).toBe(`<${PUBLIC_URL}/api/catalogue/products?page=2>; rel="next"`);
    expect(first.headers.get("access-control-expose-headers")).toBe("Link");

    const second = await get("/api/catalogue/products?page=2");
    expect(second.ids).toEqual(range(1001, 2000));
    expect(second.link).toBe(`<${PUBLIC_URL}/api/catalogue/products?page=3>; rel="next", <${PUBLIC_URL}/api/catalogue/products?page=1>; rel="prev"`);

    const third = await get("/api/catalogue/products?page=3");
    expect(third.ids).toEqual(range(2001, 2500));
    expect(third.link).toBe(`<${PUBLIC_URL}/api/catalogue/products?page=2>; rel="prev"`);

    const past = await get("/api/catalogue/products?page=4");
    expect(past).toMatchObject({ status: 200, ids: [], link: null });
  });

  it("keeps FakeStore's limit and sort: a limit alone is the first n, no pages; sort=desc pages from the top", async () => {
    const get = await shop();
    expect(await get("/api/catalogue/products?limit=5")).toMatchObject({ ids: [1, 2, 3, 4, 5], link: null });
    expect((await get("/api/catalogue/products?limit=1000&sort=desc")).ids).toEqual(range(1501, 2500).reverse());
    expect(await get("/api/catalogue/products?limit=1001")).toMatchObject({ status: 400, ids: { error: "limit must be a whole number from 1 to 1000" } });
    expect(await get("/api/catalogue/products?page=0")).toMatchObject({ status: 400, ids: { error: "page must be a whole number from 1 to 1000000" } });

    const desc = await get("/api/catalogue/products?sort=DESC");
    expect(desc.ids).toEqual(range(1501, 2500).reverse());
    expect(desc.link).toBe(`<${PUBLIC_URL}/api/catalogue/products?sort=desc&page=2>; rel="next"`);
    expect((await get("/api/catalogue/products?sort=desc&page=3")).ids).toEqual(range(1, 500).reverse());

    // A limit with a page: pages that long.
    const short = await get("/api/catalogue/products?limit=100&page=25");
    expect(short.ids).toEqual(range(2401, 2500));
    expect(short.link).toBe(`<${PUBLIC_URL}/api/catalogue/products?limit=100&page=24>; rel="prev"`);
  });

  it("pages a category's products too, under the category's address", async () => {
    const get = await shop();
    const address = "/api/catalogue/products/category/men's%20clothing";
    const clothes = range(1, 2500).filter((id) => categoryOf(id) === "men's clothing");
    const first = await get(address);
    expect(first.ids).toEqual(clothes.slice(0, 1000));
    expect(first.link).toBe(`<${PUBLIC_URL}${address}?page=2>; rel="next"`);
    const second = await get(`${address}?page=2`);
    expect(second.ids).toEqual(clothes.slice(1000));
    expect(second.link).toBe(`<${PUBLIC_URL}${address}?page=1>; rel="prev"`);
    // 833 jewels: one page, no links.
    expect(await get("/api/catalogue/products/category/jewelery")).toMatchObject({ ids: range(2, 2500, 3), link: null });
  });

  it("gives each page its own ETag, revalidated to a 304 that carries the page's links", async () => {
    const get = await shop();
    const [one, two] = [await get("/api/catalogue/products"), await get("/api/catalogue/products?page=2")];
    const etag = two.headers.get("etag")!;
    expect(one.headers.get("etag")).not.toBe(etag);
    const revalidated = await get.app.request("/api/catalogue/products?page=2", { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("link")).toBe(two.link);
    expect(revalidated.headers.get("etag")).toBe(etag);
  });
});
