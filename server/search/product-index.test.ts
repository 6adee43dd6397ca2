import { beforeAll, describe, expect, it } from "vitest";
import { EmbeddedCatalogue } from "../catalogue/embedded.ts";
import type { Product } from "../catalogue/product.ts";
import { ProductIndex, type SearchHit } from "./product-index.ts";

// The search's ranking, typo and prefix rules, over the catalogue the shop ships.
let products: Product[];
let index: ProductIndex;

beforeAll(async () => {
  products = await new EmbeddedCatalogue().list();
  index = new ProductIndex(products);
});

const ids = (hits: SearchHit[]) => hits.map((hit) => hit.product.id);
/** The title with matched words in [brackets], to read marks at a glance. */
const marked = (hit: SearchHit) => hit.title.map((part) => (part.match ? `[${part.text}]` : part.text)).join("");
const titled = (word: string) => products.filter((p) => p.title.toLowerCase().includes(word)).map((p) => p.id);

describe("ProductIndex over the embedded catalogue", () => {
  it("finds the product whose title has the word, and marks the word in the title", () => {
    const hits = index.search("rucksack");
    expect(ids(hits)).toEqual([1]);
    expect(marked(hits[0]!)).toBe("Waxed Canvas [Rucksack] with Leather Straps");
  });

  it.each([
    ["rucksak", 1, "Waxed Canvas [Rucksack] with Leather Straps"],
    ["hedphones", 16, "Wireless Over-Ear [Headphones]"],
    ["jackt", 22, "Leather Moto [Jacket]"],
    ["headphnes", 16, "Wireless Over-Ear [Headphones]"],
  ])("forgives one typo in a word of five or more letters: %s", (query, first, title) => {
    const hits = index.search(query);
    expect(hits[0]?.product.id).toBe(first);
    expect(marked(hits[0]!)).toBe(title);
  });

  // A swap of two letters ("headphonse") is two edits, so it is not forgiven either.
  it.each(["ruksak", "hedfones", "headphonse"])("does not forgive two typos in one word: %s", (query) => {
    expect(index.search(query)).toEqual([]);
  });

  it.each(["rinq", "teee", "bnad"])("does not forgive a typo in a word of fewer than five letters: %s", (query) => {
    expect(index.search(query)).toEqual([]);
  });

  it("matches word beginnings: lapt finds the laptop, head the headphones", () => {
    expect(index.search("lapt")[0]?.product.id).toBe(17);
    expect(marked(index.search("lapt")[0]!)).toBe("15.6-Inch Gaming [Laptop] with 165 Hz Display");
    expect(ids(index.search("head"))).toEqual([16]);
    // A word's beginning only: "top" is inside "laptop" and "desktop", not at their start.
    expect(index.search("top")).toEqual([]);
  });

  it("ranks title matches above matches found only in the description", () => {
    // The rucksack's description mentions a laptop sleeve; the laptop has the word in its title.
    const rucksack = products.find((p) => p.id === 1)!;
    expect(rucksack.title).not.toMatch(/laptop/i);
    expect(rucksack.description).toMatch(/laptop/i);
    expect(ids(index.search("laptop"))).toEqual([17, 1]);
    expect(ids(index.search("lapt"))).toEqual([17, 1]);

    // "tee": both tees by title, then the cardigan whose description suggests wearing it over a tee.
    const tees = titled("tee");
    const hits = index.search("tee");
    expect(ids(hits).slice(0, tees.length).sort()).toEqual([...tees].sort());
    expect(hits.length).toBeGreaterThan(tees.length);
    for (const hit of hits.slice(tees.length)) {
      expect(hit.product.title).not.toMatch(/\btee\b/i);
      expect(hit.title.every((part) => !part.match)).toBe(true);
    }
  });

  it("ignores case and accents, in the query and in the catalogue", () => {
    for (const query of ["RUCKSACK", "RuckSack", "rücksack", "RÜCKSÄCK", "ｒｕｃｋｓａｃｋ"]) {
      expect(ids(index.search(query)), query).toEqual([1]);
    }
    const accented = new ProductIndex([{ ...products[0]!, id: 99, title: "Crème Brûlée Café Mug" }]);
    expect(ids(accented.search("creme brulee"))).toEqual([99]);
    expect(marked(accented.search("CAFE")[0]!)).toBe("Crème Brûlée [Café] Mug");
  });

  it("prefers products with every word; falls back to any word when none has them all", () => {
    expect(ids(index.search("leather jacket"))).toEqual([22]);
    expect(marked(index.search("leather jacket")[0]!)).toBe("[Leather] Moto [Jacket]");
    // No product is red, but the shopper still sees the laptop.
    expect(index.search("red laptop")[0]?.product.id).toBe(17);
  });

  it("finds a category by its name, even spelled the usual way", () => {
    const jewellery = products.filter((p) => p.category === "jewelery").map((p) => p.id);
    expect(ids(index.search("jewelry")).sort((a, b) => a - b)).toEqual(jewellery);
  });

  it("answers nothing for words no product has, and for text without words", () => {
    expect(index.search("zzqx")).toEqual([]);
    expect(index.search("<script>")).toEqual([]);
    expect(index.search("!!! ???")).toEqual([]);
    expect(index.search("")).toEqual([]);
  });
});
