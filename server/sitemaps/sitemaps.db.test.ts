import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { heardRow } from "../../test/support/heard.ts";
import { testApp } from "../../test/support/app.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import { type SeedEntry, seedCatalogue } from "../catalogue/seed.ts";

// robots.txt and the sitemaps of a catalogue of 2,500 products in the shop's database, one of them
// archived, one edited since the others.

const PUBLIC_URL = "https://shop.example";
const SEEDED = Date.UTC(2024, 0, 15, 9, 0, 0);
const EDITED = Date.UTC(2024, 2, 1, 18, 30, 0);
const categoryOf = (id: number) => (id % 2 ? "men's clothing" : "jewelery");

const entries: SeedEntry[] = Array.from({ length: 2500 }, (_, i) => ({
  id: i + 1,
  title: `Product ${i + 1}`,
  price: 10,
  description: "Made in quantity.",
  category: categoryOf(i + 1),
  image: "backpack.svg",
  rating: { rate: 4, count: 10 },
  stock: 5,
}));

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
const lastmodOf = (xml: string, loc: string) => new RegExp(`<loc>${loc.replace(/[.?]/g, "\\$&")}</loc><lastmod>([^<]+)</lastmod>`).exec(xml)?.[1];

describe.each(testEngines())("robots.txt and the sitemaps on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function shop() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    await seedCatalogue(database, entries, SEEDED);
    await database.db.updateTable("products").set({ archived_at: EDITED }).where("id", "=", 7).execute();
    await database.db.updateTable("products").set({ title: "Edited", updated: EDITED }).where("id", "=", 10).execute();
    const { app, services } = await testApp({ database, catalogue: "database", env: { PUBLIC_URL } });
    cleanup(async () => services.orderFeed.closeAll());
    return Object.assign(app, { database, services });
  }

  it("serves robots.txt naming the sitemap", async () => {
    const response = await (await shop()).request("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await response.text();
    expect(text).toContain("Allow: /\nDisallow: /api/\nDisallow: /admin\nDisallow: /payment\nDisallow: /orders\nDisallow: /auth\n");
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml\n`);
  });

  it("indexes its sitemaps, which list every product and category page but the archived, with lastmods", async () => {
    const app = await shop();
    const index = await app.request("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("application/xml");
    expect(index.headers.get("cache-control")).toBe("public, max-age=300");
    const xml = await index.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/);
    expect(locs(xml)).toEqual([`${PUBLIC_URL}/sitemaps/categories-1.xml`, `${PUBLIC_URL}/sitemaps/products-1.xml`]);
    expect(lastmodOf(xml, `${PUBLIC_URL}/sitemaps/products-1.xml`)).toBe("2024-03-01T18:30:00Z");

    const products = await (await app.request("/sitemaps/products-1.xml")).text();
    expect(products).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n(<url><loc>[^<]+<\/loc><lastmod>[^<]+<\/lastmod><\/url>\n)+<\/urlset>\n$/);
    const listed = Array.from({ length: 2500 }, (_, i) => i + 1).filter((id) => id !== 7);
    expect(locs(products)).toEqual(listed.map((id) => `${PUBLIC_URL}/products/${id}`));
    expect(lastmodOf(products, `${PUBLIC_URL}/products/1`)).toBe("2024-01-15T09:00:00Z");
    expect(lastmodOf(products, `${PUBLIC_URL}/products/10`)).toBe("2024-03-01T18:30:00Z");

    const categories = await (await app.request("/sitemaps/categories-1.xml")).text();
    expect(locs(categories)).toEqual([`${PUBLIC_URL}/`, `${PUBLIC_URL}/results/jewelery`, `${PUBLIC_URL}/results/men&apos;s%20clothing`]);
    expect(lastmodOf(categories, `${PUBLIC_URL}/results/jewelery`)).toBe("2024-03-01T18:30:00Z");
    expect(lastmodOf(categories, `${PUBLIC_URL}/results/men&apos;s%20clothing`)).toBe("2024-01-15T09:00:00Z");
  });

  it("follows the catalogue's changes: an edit's new lastmod, an archived product gone", async () => {
    const app = await shop();
    const before = await (await app.request("/sitemaps/products-1.xml")).text();
    expect(locs(before)).toContain(`${PUBLIC_URL}/products/30`);
    const LATER = Date.UTC(2024, 5, 1, 8, 0, 0);
    await app.database.db.transaction().execute(async (trx) => {
      await trx.updateTable("products").set({ title: "Edited again", updated: LATER }).where("id", "=", 20).execute();
      await trx.updateTable("products").set({ archived_at: LATER, updated: LATER }).where("id", "=", 30).execute();
      await app.services.catalogueEvents.publish(trx, { ids: [20, 30] });
    });
    // On PostgreSQL the change is heard through LISTEN, some time after the commit.
    const catalogue = app.services.catalogue as DatabaseCatalogue;
    await heardRow(catalogue, app.database, 20);
    await heardRow(catalogue, app.database, 30);
    const after = await (await app.request("/sitemaps/products-1.xml")).text();
    expect(lastmodOf(after, `${PUBLIC_URL}/products/20`)).toBe("2024-06-01T08:00:00Z");
    expect(locs(after)).not.toContain(`${PUBLIC_URL}/products/30`);
    expect(locs(after)).toHaveLength(2498);
    expect(lastmodOf(await (await app.request("/sitemap.xml")).text(), `${PUBLIC_URL}/sitemaps/products-1.xml`)).toBe("2024-06-01T08:00:00Z");
  });

  it("revalidates by ETag, sends gzip when taken, and leaves an unknown sitemap to the pages", async () => {
    const app = await shop();
    const plain = await app.request("/sitemaps/products-1.xml");
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const text = await plain.text();
    const gzipped = await app.request("/sitemaps/products-1.xml", { headers: { "accept-encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("etag")).toBe(etag);
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(text);
    expect((await app.request("/sitemaps/products-1.xml", { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await app.request("/sitemaps/products-2.xml")).status).toBe(404);
  });
});
