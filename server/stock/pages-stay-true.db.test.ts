import { describe, expect, it } from "vitest";
import { heardFacts } from "../../test/support/heard.ts";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import { TEST_ORIGIN, jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { checkout, type Send } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";

// Pages stay true: a sale drops exactly the pages that show the product, on every instance.
const RING = 8; // jewelery, 3 units

describe.each(testEngines())("catalogue changes on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function instance(database: Awaited<ReturnType<typeof freshDatabase>>) {
    const { app, services } = await testApp({ database, catalogue: "database", ssr: await builtPages() });
    cleanup(() => services.catalogueEvents.close());
    await services.catalogueEvents.listening();
    const page = async (path: string) => {
      const response = await app.request(`${TEST_ORIGIN}${path}`);
      return { cache: response.headers.get("x-page-cache"), html: await response.text() };
    };
    return { app, services, page, catalogue: services.catalogue as DatabaseCatalogue };
  }

  it("a sale drops the product's page, the home page and its category, and keeps the rest, on every instance; the FakeStore API follows", async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const shop = await instance(database);
    // On PostgreSQL a second instance on the same database hears the change too (LISTEN/NOTIFY).
    const others = engine === "postgres" ? [await instance(database)] : [];
    const paths = ["/products/8", "/products/2", "/", "/results/jewelery", "/results/electronics", "/auth"];
    for (const one of [shop, ...others]) {
      for (const path of paths) await one.page(path);
      expect((await one.page("/products/8")).html).toContain("Only 3 left in stock.");
    }
    const cookie = await signUp(shop.app, "ring@example.com");
    const send: Send = (path, init) => shop.app.request(path, init);
    const bought = await checkout(send, { origin: TEST_ORIGIN, cookie, items: [{ id: RING, amount: 3 }] });
    expect(bought.paid?.status).toBe(200);

    for (const one of [shop, ...others]) {
      await heardFacts(one.catalogue, RING, (listed) => listed?.stock === 0);
      await one.catalogue.settled();
      const product = await one.page("/products/8");
      expect(product.cache).toBe("miss");
      expect(product.html).toContain("Currently unavailable.");
      expect(product.html).toMatch(/<button[^>]*disabled[^>]*>Out of stock<\/button>/);
      expect((await one.page("/")).cache).toBe("miss");
      expect((await one.page("/results/jewelery")).cache).toBe("miss");
      expect((await one.page("/products/2")).cache).toBe("hit");
      expect((await one.page("/results/electronics")).cache).toBe("hit");
      expect((await one.page("/auth")).cache).toBe("hit");
      const api = (await (await one.app.request(`${TEST_ORIGIN}/api/catalogue/products/8`)).json()) as { stock: number };
      expect(api.stock).toBe(0);
    }
    expect((await shop.app.request(`${TEST_ORIGIN}/api/payment/create`, jsonPost({ items: [{ id: RING, amount: 1 }], total: 1 }, { cookie }))).status).toBe(409);

    // A sale that leaves plenty changes what no page shows: the pages stay cached.
    expect((await checkout(send, { origin: TEST_ORIGIN, cookie, items: [{ id: 2, amount: 1 }] })).paid?.status).toBe(200);
    await heardFacts(shop.catalogue, 2, (listed) => listed?.stock === 999);
    expect((await shop.page("/products/2")).cache).toBe("hit");
    expect((await shop.page("/")).cache).toBe("hit");
  }, 60_000);

  it("a price change announced by the event shows on the product page, in search results and in the FakeStore API", async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const shop = await instance(database);
    expect((await shop.page("/search?q=crew")).html).toContain("15.99");
    await shop.page("/products/2");
    await database.db.transaction().execute(async (trx) => {
      await trx.updateTable("products").set({ price_cents: 1234 }).where("id", "=", 2).execute();
      await shop.services.catalogueEvents.publish(trx, { ids: [2] });
    });
    await heardFacts(shop.catalogue, 2, (listed) => listed?.priceCents === 1234);
    expect((await shop.page("/products/2")).html).toContain("12.34");
    expect((await shop.page("/search?q=crew")).html).toContain("12.34");
    const api = (await (await shop.app.request(`${TEST_ORIGIN}/api/catalogue/products/2`)).json()) as { price: number };
    expect(api.price).toBe(12.34);
  });
});
