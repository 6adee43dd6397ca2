import { beforeAll, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { createApp } from "../app.ts";
import { openDatabase } from "../db/database.ts";
import { createLogger } from "../log.ts";
import { EmbeddedCatalogue } from "./embedded.ts";
import type { FakeStoreProduct } from "./product.ts";

const PUBLIC_URL = "https://shop.example";
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  app = createApp({
    config: { NODE_ENV: "test", PUBLIC_URL },
    log: createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
    database: openDatabase({ engine: "sqlite", file: ":memory:" }),
    catalogue: new EmbeddedCatalogue(),
  });
});

async function getJson(path: string) {
  const response = await app.request(path);
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

const ids = (body: unknown) => (body as FakeStoreProduct[]).map((p) => p.id);
const allIds = products.map((p) => p.id).sort((a, b) => a - b);

describe("GET /api/catalogue/products", () => {
  it("lists every product in the FakeStore shape, by ascending id", async () => {
    const { status, body } = await getJson("/api/catalogue/products");
    expect(status).toBe(200);
    expect(ids(body)).toEqual(allIds);
    const first = (body as FakeStoreProduct[])[0]!;
    const source = products.find((p) => p.id === first.id)!;
    expect(first).toEqual({
      id: source.id,
      title: source.title,
      price: source.price,
      description: source.description,
      category: source.category,
      image: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/images/products/${source.image}\\?v=[0-9a-f]{12}$`)),
      rating: source.rating,
    });
  });

  it("keeps dollar prices exact through the cents round trip", async () => {
    const { body } = await getJson("/api/catalogue/products");
    for (const product of body as FakeStoreProduct[]) {
      expect(product.price).toBe(products.find((p) => p.id === product.id)!.price);
    }
  });

  it("honours limit and sort", async () => {
    expect(ids((await getJson("/api/catalogue/products?limit=5")).body)).toEqual(allIds.slice(0, 5));
    expect(ids((await getJson("/api/catalogue/products?sort=desc")).body)).toEqual([...allIds].reverse());
    expect(ids((await getJson("/api/catalogue/products?sort=desc&limit=2")).body)).toEqual([...allIds].reverse().slice(0, 2));
    expect(ids((await getJson("/api/catalogue/products?sort=asc&limit=1000")).body)).toEqual(allIds);
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 1000"],
    ["limit=-3", "limit must be a whole number from 1 to 1000"],
    ["limit=2.5", "limit must be a whole number from 1 to 1000"],
    ["limit=abc", "limit must be a whole number from 1 to 1000"],
    ["limit=1001", "limit must be a whole number from 1 to 1000"],
    ["sort=up", "sort must be asc or desc"],
    ["sort=", "sort must be asc or desc"],
  ])("answers 400 to %s", async (query, message) => {
    const { status, body } = await getJson(`/api/catalogue/products?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: message });
  });

  it("is cacheable: an ETag that revalidates to 304, and a Cache-Control", async () => {
    const first = await app.request("/api/catalogue/products");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const second = await app.request("/api/catalogue/products", { headers: { "if-none-match": etag! } });
    expect(second.status).toBe(304);
  });
});

describe("GET /api/catalogue/products/categories", () => {
  it("lists the four categories", async () => {
    const { status, body } = await getJson("/api/catalogue/products/categories");
    expect(status).toBe(200);
    expect(body).toEqual(["electronics", "jewelery", "men's clothing", "women's clothing"]);
  });
});

describe("GET /api/catalogue/products/category/:name", () => {
  it.each(["electronics", "jewelery", "men's clothing", "women's clothing"])("lists exactly the %s products", async (name) => {
    const { status, body } = await getJson(`/api/catalogue/products/category/${encodeURIComponent(name)}`);
    expect(status).toBe(200);
    const expected = products.filter((p) => p.category === name).map((p) => p.id).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(expected);
  });

  it("honours limit and sort, and rejects bad ones", async () => {
    const expected = products.filter((p) => p.category === "jewelery").map((p) => p.id).sort((a, b) => b - a);
    expect(ids((await getJson("/api/catalogue/products/category/jewelery?sort=desc&limit=3")).body)).toEqual(expected.slice(0, 3));
    expect((await getJson("/api/catalogue/products/category/jewelery?limit=x")).status).toBe(400);
    expect((await getJson("/api/catalogue/products/category/jewelery?sort=random")).status).toBe(400);
  });

  it("answers an empty list for an unknown category, as FakeStore does", async () => {
    const { status, body } = await getJson("/api/catalogue/products/category/toys");
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });
});

describe("GET /api/catalogue/products/:id", () => {
  it("answers one product", async () => {
    const { status, body } = await getJson("/api/catalogue/products/17");
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 17, price: products.find((p) => p.id === 17)!.price });
  });

  it.each(["9999", "abc", "0", "-1", "1.5", "1e3", "12345678901234567890"])("answers 404 with a JSON message for %s", async (id) => {
    const { status, body } = await getJson(`/api/catalogue/products/${id}`);
    expect(status).toBe(404);
    expect(body).toEqual({ error: `No product with id ${JSON.stringify(id)}.` });
  });
});

describe("other requests under /api", () => {
  it("answers 404 in JSON for an unknown endpoint and 405 for a wrong method", async () => {
    expect(await getJson("/api/nothing-here")).toMatchObject({ status: 404, body: { error: "No API endpoint GET /api/nothing-here." } });
    const post = await app.request("/api/catalogue/products", { method: "POST" });
    expect(post.status).toBe(405);
  });

  it.each([
    ["/api/catalogue/products", "{not json"],
    ["/api/health", '{"a":'],
    ["/api/payment/create", "]"],
  ])("answers 400 to a malformed JSON body on %s", async (path, body) => {
    const response = await app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request body is not valid JSON." });
  });

  it("answers 413 to a body that is too large", async () => {
    const response = await app.request("/api/catalogue/products", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(100_000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The request body is too large." });
  });
});

describe("product images", () => {
  it("serves the drawings with long-lived caching and revalidation", async () => {
    const { body } = await getJson("/api/catalogue/products/1");
    const url = new URL((body as FakeStoreProduct).image);
    const response = await app.request(url.pathname + url.search);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await response.text()).toMatch(/^<svg[^>]*width="400"[^>]*height="400"/);
    const again = await app.request(url.pathname, { headers: { "if-none-match": response.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a file that is not a product image", async () => {
    expect((await app.request("/images/products/..%2F..%2Fpackage.json")).status).toBe(404);
    expect((await app.request("/images/products/nothing.svg")).status).toBe(404);
  });
});
