import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_PRODUCTS, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { remoteShop } from "../../test/support/remote-shop.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
let shops: Array<Awaited<ReturnType<typeof remoteShop>>> = [];

beforeAll(async () => {
  fake = await startFakeCatalogue();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.malformed = false;
});
afterEach(async () => {
  await Promise.all(shops.map((shop) => shop.close()));
  shops = [];
});

/** A shop over the small fake host, with a catalogue of its own (no copy from another test). */
async function shop(options: { cacheSeconds?: number; catalogueUrl?: string } = {}) {
  const created = await remoteShop({ catalogueUrl: fake.url, timeoutMs: 300, ...options });
  shops.push(created);
  return created;
}

const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!) as Record<string, unknown>;

describe("pages over a remote FakeStore catalogue", () => {
  it("render the remote products; images on an origin that is not allowed show the placeholder, and the CSP stays our own", async () => {
    const { page } = await shop();
    const home = await page("/");
    expect(home.status).toBe(200);
    for (const product of FAKE_PRODUCTS) expect(home.html).toContain(product.title);
    expect(home.html).toContain("$109.95");
    // FAKE_PRODUCTS' images are on https://img.example, which CATALOGUE_IMAGE_ORIGINS does not list.
    expect(home.html).not.toContain("img.example");
    expect(home.html).toContain('src="/images/remote/placeholder.svg"');
    expect(home.csp).toContain("img-src 'self' data:;");
    const results = await page(`/results/${encodeURIComponent("jewelery")}`);
    expect(results.html).toContain("Remote Ring");
    expect(results.html).not.toContain("Remote Drive");
    const product = await page("/products/3");
    expect(product.status).toBe(200);
    expect(product.html).toContain("Remote Drive");
  });

  it("never render a malformed product", async () => {
    fake.state.malformed = true;
    const { page } = await shop();
    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.html).toContain("Remote Ring");
    expect(home.html).not.toContain("alert(1)");
  });

  it.each(["garbage", "error", "hang"] as const)(
    "degrade as the spec says when the host answers %s before any good answer, and keep serving",
    async (mode) => {
      fake.state.mode = mode;
      const { page, app, records, catalogue } = await shop({ cacheSeconds: 0 });
      const home = await page("/");
      expect(home.status).toBe(200);
      expect(home.html).not.toContain("Remote Ring");
      expect(home.html).toContain('class="product-grid"');
      const results = await page("/results/jewelery");
      expect(results.status).toBe(200);
      expect(results.html).toContain("No products found in the <!-- -->jewelery<!-- --> category.");
      const product = await page("/products/2");
      expect(product.status).toBe(404);
      expect(product.html).toContain("Product not found.");
      expect(records.some((r) => r.msg === "catalogue request failed")).toBe(true);
      const api = await app.request("/api/catalogue/products");
      expect(api.status).toBe(502);
      expect(await api.json()).toEqual({ error: "The catalogue is unavailable; try again shortly." });
      const health = await app.request("/api/health");
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", catalogue: { source: "remote", state: "unavailable" } });
      expect(catalogue.health().state).toBe("unavailable");
    },
  );

  it("degrade the same way when the host is down altogether", async () => {
    const { page } = await shop({ catalogueUrl: "http://127.0.0.1:9" });
    expect((await page("/")).status).toBe(200);
    const product = await page("/products/1");
    expect(product.status).toBe(404);
    expect(product.html).toContain("Product not found.");
  });

  it("give search engines a rating only for a product that has reviews", async () => {
    const saved = FAKE_PRODUCTS[2]!.rating;
    FAKE_PRODUCTS[2]!.rating = { rate: 0, count: 0 };
    try {
      const { page } = await shop();
      const rated = jsonLd((await page("/products/1")).html);
      expect(rated.aggregateRating).toEqual({ "@type": "AggregateRating", ratingValue: 3.9, reviewCount: 120 });
      const unrated = jsonLd((await page("/products/3")).html);
      expect(unrated).toMatchObject({ "@type": "Product", name: "Remote Drive", offers: { price: "64.00" } });
      expect(unrated).not.toHaveProperty("aggregateRating");
    } finally {
      FAKE_PRODUCTS[2]!.rating = saved;
    }
  });
});
