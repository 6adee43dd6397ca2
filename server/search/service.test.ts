import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Catalogue, type CatalogueChange, CatalogueUnavailableError } from "../catalogue/catalogue.ts";
import { EmbeddedCatalogue } from "../catalogue/embedded.ts";
import type { Product } from "../catalogue/product.ts";
import { RemoteCatalogue } from "../catalogue/remote.ts";
import { FAKE_PRODUCTS, nextRefresh, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { ProductIndex } from "./product-index.ts";
import { CatalogueSearch, type SearchResults } from "./service.ts";

const product = (id: number, title: string): Product => ({
  id,
  title,
  priceCents: 1000,
  description: "",
  category: "things",
  image: `/images/${id}.svg`,
  rating: { rate: 4, count: 1 },
});

/** A catalogue the test steers: swap its products (announced like a remote refresh) or make it fail. */
class SteeredCatalogue implements Catalogue {
  failure: Error | null = null;
  lists = 0;
  private readonly listeners = new Set<(change?: CatalogueChange) => void>();
  constructor(private products: Product[]) {}
  async listed() {
    this.lists += 1;
    if (this.failure) throw this.failure;
    return this.products;
  }
  async byIds(ids: readonly number[]) {
    return ids.flatMap((id) => this.products.find((p) => p.id === id) ?? []);
  }
  /** `ids`: announced as the database catalogue does (these products changed); without: a remote refresh. */
  replace(products: Product[], ids?: number[]) {
    this.products = products;
    for (const listener of this.listeners) listener(ids ? { ids } : undefined);
  }
  readonly images = { basePath: "/images/products/", serve: async () => new Response(null, { status: 404 }) };
  health() {
    return { source: "embedded", state: "fresh" } as const;
  }
  async byId() {
    return null;
  }
  onChange(listener: (change?: CatalogueChange) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const titles = (results: SearchResults) => results.hits.map((hit) => hit.product.title);

describe("CatalogueSearch", () => {
  it("searches the catalogue's products and says how many matched in all", async () => {
    const search = new CatalogueSearch(new EmbeddedCatalogue(), memoryLogger().log);
    const results = await search.query("  Rucksak ", 10);
    expect(results.query).toBe("Rucksak");
    expect(results.total).toBe(1);
    expect(results.hits[0]!.product.id).toBe(1);
  });

  it("keeps the best `limit` hits and still counts them all", async () => {
    const search = new CatalogueSearch(new EmbeddedCatalogue(), memoryLogger().log);
    const all = await search.query("jacket", 100);
    expect(all.total).toBe(3);
    const two = await search.query("jacket", 2);
    expect(two.total).toBe(3);
    expect(two.hits.map((hit) => hit.product.id)).toEqual(all.hits.slice(0, 2).map((hit) => hit.product.id));
    const later = await search.query("jacket", 2, 2);
    expect(later.total).toBe(3);
    expect(later.hits.map((hit) => hit.product.id)).toEqual(all.hits.slice(2).map((hit) => hit.product.id));
  });

  it("answers an empty or blank query with nothing, without reading the catalogue", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Lamp")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    expect(await search.query("", 6)).toEqual({ query: "", total: 0, hits: [] });
    expect(await search.query(" \t\n", 6)).toEqual({ query: "", total: 0, hits: [] });
    expect(catalogue.lists).toBe(0);
  });

  it("cuts a long query to 200 characters", async () => {
    const search = new CatalogueSearch(new SteeredCatalogue([product(1, "Lamp")]), memoryLogger().log);
    const results = await search.query(`lamp ${"x".repeat(1_000)}`, 6);
    expect(results.query).toHaveLength(200);
    expect(titles(results)).toEqual(["Lamp"]);
  });

  it("builds the index once, and rebuilds it when the catalogue announces a change", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Brass Desk Lamp")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    expect(titles(await search.query("lamp", 6))).toEqual(["Brass Desk Lamp"]);
    expect(titles(await search.query("lamp", 6))).toEqual(["Brass Desk Lamp"]);

    catalogue.replace([product(1, "Brass Desk Lamp"), product(2, "Paper Floor Lamp")]);
    expect(titles(await search.query("lamp", 6)).sort()).toEqual(["Brass Desk Lamp", "Paper Floor Lamp"]);
    catalogue.replace([product(2, "Paper Floor Lamp")]);
    expect(titles(await search.query("brass", 6))).toEqual([]);
    expect(titles(await search.query("lamp", 6))).toEqual(["Paper Floor Lamp"]);
  });

  it("takes again only the products a change names: edited, archived, added", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Brass Desk Lamp"), product(2, "Paper Floor Lamp"), product(3, "Oak Stool")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    expect(titles(await search.query("lamp", 6)).sort()).toEqual(["Brass Desk Lamp", "Paper Floor Lamp"]);
    const update = vi.spyOn(ProductIndex.prototype, "update");
    catalogue.replace([product(1, "Copper Desk Lamp"), product(3, "Oak Stool"), product(4, "Glass Table Lamp")], [1, 2, 4]);
    expect(titles(await search.query("lamp", 6)).sort()).toEqual(["Copper Desk Lamp", "Glass Table Lamp"]);
    // The index was brought up to date, not built again.
    expect(update).toHaveBeenCalledOnce();
    update.mockRestore();
    expect(titles(await search.query("brass", 6))).toEqual([]);
    expect(titles(await search.query("stool", 6))).toEqual(["Oak Stool"]);
  });

  it("takes a product named by a change heard while the products were read again on the next query", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Old Lamp")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    await search.query("lamp", 6);
    const byIds = catalogue.byIds.bind(catalogue);
    catalogue.byIds = async (ids) => {
      const products = await byIds(ids);
      catalogue.replace([product(1, "New Lamp")], [1]);
      return products;
    };
    catalogue.replace([product(1, "Old Lamp")], [1]);
    expect(titles(await search.query("lamp", 6))).toEqual(["Old Lamp"]);
    catalogue.byIds = byIds;
    expect(titles(await search.query("lamp", 6))).toEqual(["New Lamp"]);
  });

  it("does not keep an index built from products read before a change", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Old Lamp")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    // The change is announced while the first query's products are read, as a concurrent refresh would.
    const byIds = catalogue.byIds.bind(catalogue);
    catalogue.byIds = async (ids) => {
      const products = await byIds(ids);
      catalogue.replace([product(2, "New Lamp")]);
      return products;
    };
    expect(titles(await search.query("lamp", 6))).toEqual(["Old Lamp"]);
    catalogue.byIds = byIds;
    expect(titles(await search.query("lamp", 6))).toEqual(["New Lamp"]);
  });

  it("answers no results while the catalogue is down, and finds again once it is back", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Lamp")]);
    const { log, records } = memoryLogger();
    const search = new CatalogueSearch(catalogue, log);
    catalogue.failure = new CatalogueUnavailableError("down");
    await expect(search.query("lamp", 6)).resolves.toEqual({ query: "lamp", total: 0, hits: [] });
    // The catalogue adapter logs its own outages; search adds nothing.
    expect(records).toEqual([]);
    catalogue.failure = null;
    expect(titles(await search.query("lamp", 6))).toEqual(["Lamp"]);
  });

  it("answers no results to any other failure too, and logs it", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Lamp")]);
    const { log, records } = memoryLogger();
    catalogue.failure = new TypeError("a bug");
    await expect(new CatalogueSearch(catalogue, log).query("lamp", 6)).resolves.toEqual({ query: "lamp", total: 0, hits: [] });
    expect(records).toMatchObject([{ level: 50, msg: "search failed; answering no results", err: { message: "a bug" } }]);
  });

  it("stops following the catalogue when closed", async () => {
    const catalogue = new SteeredCatalogue([product(1, "Lamp")]);
    const search = new CatalogueSearch(catalogue, memoryLogger().log);
    await search.query("lamp", 6);
    search.close();
    catalogue.replace([product(2, "Rug")]);
    // Closed: the change went unheard, so the old index still answers.
    expect(titles(await search.query("lamp", 6))).toEqual(["Lamp"]);
  });
});

describe("CatalogueSearch over a remote FakeStore catalogue", () => {
  let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
  beforeAll(async () => {
    fake = await startFakeCatalogue();
  });
  afterAll(() => fake.close());

  it("finds the remote products, follows a refresh that brings new ones, and keeps the last good copy through an outage", async () => {
    const { log } = memoryLogger();
    const catalogue = new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 0, log });
    const search = new CatalogueSearch(catalogue, log);
    expect(titles(await search.query("rucksak", 6))).toEqual(["Remote Rucksack"]);

    // The host starts selling a lamp: a read starts the background refresh, which announces the
    // change, and the next search rebuilds from the new list.
    FAKE_PRODUCTS.push({ ...FAKE_PRODUCTS[0]!, id: 4, title: "Remote Lamp" });
    try {
      const refreshed = nextRefresh(catalogue);
      await search.query("lamp", 6);
      await refreshed;
      expect(titles(await search.query("lamp", 6))).toEqual(["Remote Lamp"]);
    } finally {
      FAKE_PRODUCTS.pop();
    }
    const refreshed = nextRefresh(catalogue);
    await search.query("lamp", 6);
    await refreshed;
    expect(titles(await search.query("lamp", 6))).toEqual([]);

    // The host fails: the last good copy still answers.
    fake.state.mode = "error";
    try {
      const failed = nextRefresh(catalogue);
      await search.query("rucksack", 6);
      expect(await failed).toMatchObject({ ok: false });
      expect(titles(await search.query("rucksack", 6))).toEqual(["Remote Rucksack"]);
    } finally {
      fake.state.mode = "ok";
    }
  });

  it("answers nothing, and does not throw, when the host fails before any good copy", async () => {
    const { log } = memoryLogger();
    fake.state.mode = "error";
    try {
      const search = new CatalogueSearch(new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 0, log }), log);
      await expect(search.query("rucksack", 6)).resolves.toEqual({ query: "rucksack", total: 0, hits: [] });
    } finally {
      fake.state.mode = "ok";
    }
  });
});
