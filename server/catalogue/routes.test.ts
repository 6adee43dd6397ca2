import { beforeAll, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { testApp } from "../../test/support/app.ts";
import type { FakeStoreProduct } from "./product.ts";

const PUBLIC_URL = "https://shop.example";
let app: Awaited<ReturnType<typeof testApp>>["app"];

beforeAll(async () => {
  ({ app } = await testApp({ env: { PUBLIC_URL } }));
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
      // FakeStore's shape plus the units available.
      stock: source.stock,
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
    ["page=0", "page must be a whole number from 1 to 1000000"],
    ["page=1.5", "page must be a whole number from 1 to 1000000"],
    ["page=x", "page must be a whole number from 1 to 1000000"],
  ])("answers 400 to %s", async (query, message) => {
    const { status, body } = await getJson(`/api/catalogue/products?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: message });
  });

  it("answers a small catalogue as FakeStore does: one list, no Link; a page past it is []", async () => {
    for (const query of ["", "?sort=desc", "?page=1", `?limit=${allIds.length}`]) {
      const response = await app.request(`/api/catalogue/products${query}`);
      expect(response.headers.get("link"), query).toBeNull();
      expect(((await response.json()) as unknown[]).length, query).toBe(allIds.length);
    }
    expect((await getJson("/api/catalogue/products?page=2")).body).toEqual([]);
    expect((await getJson("/api/catalogue/products?limit=5&page=2")).body).toEqual(allIds.slice(5, 10).map((id) => expect.objectContaining({ id })));
    expect((await app.request("/api/catalogue/products?limit=5&page=2")).headers.get("link")).toBe(
      `<${PUBLIC_URL}/api/catalogue/products?limit=5&page=3>; rel="next", <${PUBLIC_URL}/api/catalogue/products?limit=5&page=1>; rel="prev"`,
    );
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

describe("for FakeStore clients", () => {
  it("lets a page on any other site read the catalogue: Access-Control-Allow-Origin *, no credentials", async () => {
    const response = await app.request("/api/catalogue/products", { headers: { origin: "https://client.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });

  it("answers a preflight with 204 and what may follow", async () => {
    const response = await app.request("/api/catalogue/products/category/jewelery", {
      method: "OPTIONS",
      headers: { origin: "https://client.example", "access-control-request-method": "GET", "access-control-request-headers": "content-type, x-requested-with" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type,x-requested-with");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
  });

  it("lets other sites read its errors too", async () => {
    const response = await app.request("/api/catalogue/products/9999", { headers: { origin: "https://client.example" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const bad = await app.request("/api/catalogue/products?limit=0", { headers: { origin: "https://client.example" } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("keeps the rest of the API to our own site", async () => {
    const health = await app.request("/api/health", { headers: { origin: "https://client.example" } });
    expect(health.headers.get("access-control-allow-origin")).toBeNull();
    expect(health.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect((await app.request("/api/health", { method: "OPTIONS" })).status).toBe(405);
  });

  it.each([
    ["/api/catalogue/products/", allIds],
    ["/api/catalogue/products/?limit=2", allIds.slice(0, 2)],
    ["/api/catalogue/products/category/jewelery/", products.filter((p) => p.category === "jewelery").map((p) => p.id).sort((a, b) => a - b)],
  ])("accepts a trailing slash: %s", async (path, expected) => {
    const { status, body } = await getJson(path);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected);
  });

  it("accepts a trailing slash on categories and single products", async () => {
    expect((await getJson("/api/catalogue/products/categories/")).body).toEqual(["electronics", "jewelery", "men's clothing", "women's clothing"]);
    expect((await getJson("/api/catalogue/products/17/")).body).toMatchObject({ id: 17 });
  });

  it.each(["DESC", "Desc", "desc"])("takes sort=%s whatever its case", async (sort) => {
    expect(ids((await getJson(`/api/catalogue/products?sort=${sort}`)).body)).toEqual([...allIds].reverse());
    expect(ids((await getJson(`/api/catalogue/products?sort=${sort.replace(/desc/i, (m) => (m === "DESC" ? "ASC" : "asc"))}`)).body)).toEqual(allIds);
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
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.text()).toMatch(/^<svg[^>]*width="400"[^>]*height="400"/);
    const again = await app.request(url.pathname, { headers: { "if-none-match": response.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a file that is not a product image", async () => {
    expect((await app.request("/images/products/..%2F..%2Fpackage.json")).status).toBe(404);
    expect((await app.request("/images/products/nothing.svg")).status).toBe(404);
  });
});

describe("prepared answers", () => {
  it("sends br or gzip as asked, the same JSON either way, with one ETag and a 304 for it", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const plain = await app.request("/api/catalogue/products");
    const text = await plain.text();
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const br = await app.request("/api/catalogue/products", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(text);
    const gzip = await app.request("/api/catalogue/products", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(text);
    // A coding the client refuses (q=0) is never sent, however much we prefer it.
    const refused = await app.request("/api/catalogue/products", { headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(refused.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await refused.arrayBuffer())).toString()).toBe(text);
    for (const response of [br, gzip]) expect(response.headers.get("etag")).toBe(etag);
    expect(br.headers.get("vary")).toContain("Accept-Encoding");
    const again = await app.request("/api/catalogue/products", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    // Different addresses are different answers.
    const limited = await app.request("/api/catalogue/products?limit=2");
    expect(limited.headers.get("etag")).not.toBe(etag);
    expect(((await limited.json()) as unknown[]).length).toBe(2);
  });
});

