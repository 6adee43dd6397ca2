import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { testApp } from "../../test/support/app.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { importProducts } from "../catalogue/transfer/import.ts";
import type { SearchHit } from "./product-index.ts";
import { DatabaseSearch } from "./database-search.ts";

// Search on the shop's database (the default catalogue), on each engine: the rules of the in-memory
// index (product-index.test.ts) over the same products, and a product found within a second of
// being added, edited or imported, never once archived.
const ACTOR = { id: null, name: "search test" };
const ids = (hits: SearchHit[]) => hits.map((hit) => hit.product.id);
/** The title with matched words in [brackets], to read marks at a glance. */
const marked = (hit: SearchHit | undefined) => hit?.title.map((part) => (part.match ? `[${part.text}]` : part.text)).join("");

describe.each(testEngines())("DatabaseSearch on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { services } = await testApp({ database, catalogue: "database" });
    cleanup(() => services.catalogueEvents.close());
    await services.catalogueEvents.listening();
    expect(services.search).toBeInstanceOf(DatabaseSearch);
    const search = async (query: string, limit = 100) => (await services.search.query(query, limit)).hits;
    /** Polls `query` until `found` holds, for at most a second: how soon every instance must find a change. */
    const within1s = (query: string, found: (hits: SearchHit[]) => boolean) => expect.poll(async () => found(await search(query)), { timeout: 1_000, interval: 20 }).toBe(true);
    return { services, search, within1s };
  }

  it("keeps the in-memory index's rules: prefixes, one typo in words of five letters or more, title matches first", async () => {
    const { search, services } = await setup();
    expect(ids(await search("rucksack"))).toEqual([1]);
    expect(marked((await search("rucksack"))[0])).toBe("Waxed Canvas [Rucksack] with Leather Straps");
    for (const [query, first, title] of [
      ["rucksak", 1, "Waxed Canvas [Rucksack] with Leather Straps"],
      ["hedphones", 16, "Wireless Over-Ear [Headphones]"],
      ["jackt", 22, "Leather Moto [Jacket]"],
      ["headphnes", 16, "Wireless Over-Ear [Headphones]"],
    ] as const) {
      const hits = await search(query);
      expect(hits[0]?.product.id, query).toBe(first);
      expect(marked(hits[0]), query).toBe(title);
    }
    // Two edits (a swap of two letters is two), or one in a short word: nothing.
    for (const query of ["ruksak", "hedfones", "headphonse", "rinq", "teee", "bnad"]) expect(await search(query), query).toEqual([]);
    expect(ids(await search("lapt"))).toEqual([17, 1]);
    expect(marked((await search("lapt"))[0])).toBe("15.6-Inch Gaming [Laptop] with 165 Hz Display");
    expect(ids(await search("laptop"))).toEqual([17, 1]);
    expect(ids(await search("head"))).toEqual([16]);
    expect(await search("top")).toEqual([]);
    for (const query of ["RUCKSACK", "RuckSack", "rücksack", "RÜCKSÄCK", "ｒｕｃｋｓａｃｋ"]) expect(ids(await search(query)), query).toEqual([1]);
    expect(ids(await search("leather jacket"))).toEqual([22]);
    expect(marked((await search("leather jacket"))[0])).toBe("[Leather] Moto [Jacket]");
    expect((await search("red laptop"))[0]?.product.id).toBe(17);
    const jewellery = products.filter((p) => p.category === "jewelery").map((p) => p.id);
    expect(ids(await search("jewelry")).sort((a, b) => a - b)).toEqual(jewellery);
    for (const query of ["zzqx", "<script>", "!!! ???", ""]) expect(await services.search.query(query, 6), query).toMatchObject({ total: 0, hits: [] });
  });

  it("takes the engines' query syntax in a query as words", async () => {
    const { services } = await setup();
    const { log, records } = memoryLogger();
    const search = new DatabaseSearch(services.catalogue, services.database, log);
    for (const query of ["'; drop table products; --", '"*" OR ( NEAR rucksack', "rucksack:* & !b | 'c", "{title} : lapt", "^rucksack", "\\"]) {
      expect((await search.query(query, 6)).hits, query).toEqual(expect.any(Array));
    }
    expect(ids((await search.query('"rucksack"*', 6)).hits)).toEqual([1]);
    expect(records).toEqual([]);
    search.close();
  });

  it("puts the title matches first, says how many matched in all and keeps the best `limit`", async () => {
    const { services, search } = await setup();
    // "tee": both tees by title, then the cardigan whose description suggests wearing it over a tee.
    const tees = products.filter((p) => /\btee\b/i.test(p.title)).map((p) => p.id);
    const hits = await search("tee");
    expect(ids(hits).slice(0, tees.length).sort()).toEqual([...tees].sort());
    expect(hits.length).toBeGreaterThan(tees.length);
    for (const hit of hits.slice(tees.length)) expect(hit.title.every((part) => !part.match)).toBe(true);
    const all = await services.search.query("jacket", 100);
    expect(all.total).toBe(3);
    const two = await services.search.query("  jacket ", 2);
    expect(two).toMatchObject({ query: "jacket", total: 3 });
    expect(ids(two.hits)).toEqual(ids(all.hits).slice(0, 2));
    // A later page: the ones after the first `offset`, as the whole ranking has them.
    const later = await services.search.query("jacket", 2, 2);
    expect(later.total).toBe(3);
    expect(ids(later.hits)).toEqual(ids(all.hits).slice(2));
    const long = await services.search.query(`rucksack ${"x".repeat(1_000)}`, 6);
    expect(long.query).toHaveLength(200);
    expect(ids(long.hits)).toEqual([1]);
  });

  it("finds a product within a second of its creation or edit, typos included, and never once it is archived", async () => {
    const { services, search, within1s } = await setup();
    const created = await services.products.create(ACTOR, { title: "Crème Brûlée Café Mug", price: 12, description: "Stoneware.", category: "electronics", stock: 3 });
    if (!created.ok) throw new Error(created.message);
    const mug = created.product;
    await within1s("creme brulee", (hits) => ids(hits).includes(mug.id));
    expect(marked((await search("CAFE"))[0])).toBe("Crème Brûlée [Café] Mug");

    const edited = await services.products.update(ACTOR, mug.id, { title: "Zephyrine Porcelain Mug", price: 12, description: "Stoneware.", category: "electronics", stock: 3, version: mug.version });
    if (!edited.ok) throw new Error(edited.message);
    // A word no product had before, misspelt: the vocabulary has heard the edit too.
    await within1s("zephyrne", (hits) => ids(hits).includes(mug.id));
    expect(marked((await search("zephyrne"))[0])).toBe("[Zephyrine] Porcelain Mug");
    expect(ids(await search("brulee"))).toEqual([]);

    const archived = await services.products.setArchived(ACTOR, 1, true);
    expect(archived.ok).toBe(true);
    await within1s("rucksack", (hits) => hits.length === 0);
    expect(await search("rucksak")).toEqual([]);
    await services.products.setArchived(ACTOR, 1, false);
    await within1s("rucksak", (hits) => ids(hits).includes(1));
  });

  it("gives the back office's title search: every word's beginning in the title, archived products included", async () => {
    const { services } = await setup();
    const titles = async (q: string) => (await services.products.list({ q, limit: 100 })).products.map((p) => p.title);
    const leather = products.filter((p) => /\bleather\b/i.test(p.title)).map((p) => p.title);
    expect(await titles("LEATHER")).toEqual(leather);
    expect(await titles("leath moto")).toEqual(["Leather Moto Jacket"]);
    expect(await services.products.setArchived(ACTOR, 22, true)).toMatchObject({ ok: true });
    expect(await titles("leather moto")).toEqual(["Leather Moto Jacket"]);
    expect(await titles("zzqx")).toEqual([]);
    // No word: the titles as they are (LIKE's wildcards plain characters).
    expect((await services.products.list({ q: "%" })).total).toBe(0);
  });

  it("finds the products of an import within a second, and counts a broad query's matches exactly", async () => {
    const { services, within1s } = await setup();
    const seededTees = await services.search.query("tee", 100);
    const count = 3_000;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: 1_000 + i,
      title: `Quokkaware Bowl No. ${i}`,
      price: 9.5,
      description: "A bowl for the tee shirt drawer.",
      category: "electronics",
      image: products[0]!.image,
      rating: { rate: 4, count: 1 },
      stock: 5,
    }));
    const imported = await importProducts({ db: services.database.db, engine, events: services.catalogueEvents }, Readable.from([JSON.stringify(rows)]), "json", ACTOR);
    expect(imported).toMatchObject({ ok: true, added: count });
    // A word of the import, misspelt: the vocabulary was read again.
    await within1s("quokaware", (hits) => hits.length > 0);
    const broad = await services.search.query("quokkaware", 6);
    expect(broad.total).toBe(count);
    // More matches than are scored: the newest first.
    expect(ids(broad.hits)).toEqual([3_999, 3_998, 3_997, 3_996, 3_995, 3_994]);
    // Title matches still come first: the tees (newest first), then the bowls whose description has the word.
    const tees = products.filter((p) => /\btee\b/i.test(p.title)).map((p) => p.id);
    const tee = await services.search.query("tee", tees.length + 2);
    expect(tee.total).toBe(seededTees.total + count);
    expect(ids(tee.hits)).toEqual([...tees.sort((a, b) => b - a), 3_999, 3_998]);
  });
});
