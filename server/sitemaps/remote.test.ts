import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../../test/support/app.ts";
import { remoteOn, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";

// With a remote catalogue (CATALOGUE_URL) the sitemaps list what the host has, without lastmods:
// FakeStore's API tells none.

let host: Awaited<ReturnType<typeof startFakeCatalogue>>;
beforeAll(async () => (host = await startFakeCatalogue()));
afterAll(async () => host.close());

describe("the sitemaps of a remote catalogue", () => {
  it("list the host's products and categories without lastmod", async () => {
    const { app } = await testApp({ catalogue: remoteOn(host.url).catalogue, env: { PUBLIC_URL: "https://shop.example" } });
    const products = await (await app.request("/sitemaps/products-1.xml")).text();
    expect(products).toContain("<url><loc>https://shop.example/products/1</loc></url>\n<url><loc>https://shop.example/products/2</loc></url>\n<url><loc>https://shop.example/products/3</loc></url>\n</urlset>");
    const categories = await (await app.request("/sitemaps/categories-1.xml")).text();
    expect(categories).toContain("<url><loc>https://shop.example/results/electronics</loc></url>");
    expect(categories).toContain("<url><loc>https://shop.example/results/men&apos;s%20clothing</loc></url>");
    expect(categories).not.toContain("<lastmod>");
    expect(await (await app.request("/sitemap.xml")).text()).not.toContain("<lastmod>");
  });

  it("answers 503 with Retry-After while the host has never answered", async () => {
    host.state.mode = "error";
    try {
      const { app } = await testApp({ catalogue: remoteOn(host.url).catalogue });
      const response = await app.request("/sitemap.xml");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("60");
    } finally {
      host.state.mode = "ok";
    }
  });
});
