import { describe, expect, it } from "vitest";
import { BroadCounts, bestMatches, type FullTextEngine, RANK_AT_MOST } from "./full-text.ts";
import { oneEditApart, Vocabulary } from "./vocabulary.ts";

describe("oneEditApart", () => {
  it.each([
    ["rucksak", "rucksack", true],
    ["jackt", "jacket", true],
    ["lampe", "lamp", true],
    ["lamb", "lamp", true],
    ["lamp", "lamp", true],
    ["headphonse", "headphones", false],
    ["ruksak", "rucksack", false],
    ["lamp", "clamps", false],
  ])("%s and %s: %s", (a, b, expected) => {
    expect(oneEditApart(a, b)).toBe(expected);
    expect(oneEditApart(b, a)).toBe(expected);
  });
});

describe("Vocabulary", () => {
  const vocabulary = new Vocabulary(["rucksack", "rucksacks", "jacket", "jackets", "packet", "headphones", "lamp", "lamps"]);

  it("finds the terms one edit away, not those the word begins (its prefix finds them)", () => {
    expect(vocabulary.neighbours("rucksak", 10)).toEqual(["rucksack"]);
    expect(vocabulary.neighbours("jackt", 10)).toEqual(["jacket"]);
    expect(vocabulary.neighbours("jacket", 10)).toEqual(["packet"]);
    expect(vocabulary.neighbours("headphonse", 10)).toEqual([]);
    expect(vocabulary.neighbours("lamp", 10)).toEqual([]);
    expect(vocabulary.size).toBe(8);
  });

  it("takes at most `max`, and learns new terms", () => {
    const words = new Vocabulary(["cat", "cot", "cut", "bat"]);
    expect(words.neighbours("cbt", 2)).toHaveLength(2);
    words.add("cbx");
    // "bat" is two edits away.
    expect(words.neighbours("cbt", 10).sort()).toEqual(["cat", "cbx", "cot", "cut"]);
  });

  it("compares the terms of a neighbour's length when the alphabet is large", () => {
    const many = new Vocabulary([...Array.from({ length: 300 }, (_, i) => String.fromCodePoint(0x4e00 + i)), "東京都", "京都"]);
    expect(many.neighbours("東都", 10).sort()).toEqual(["京都", "東京都"].sort());
  });
});

/** An engine that matches `size` products (ids 1..size), the first `titled` with the word in the title. */
function stubEngine(size: number, titled: number) {
  const calls: string[] = [];
  const engine: FullTextEngine = {
    async count() {
      calls.push("count");
      return size;
    },
    async part(_match, part, limit, ranked) {
      calls.push(`${part}:${ranked ? "ranked" : "newest"}`);
      const ids = part === "title" ? Array.from({ length: titled }, (_, i) => i + 1) : Array.from({ length: size - titled }, (_, i) => titled + i + 1);
      return (ranked ? ids : ids.reverse()).slice(0, limit);
    },
    async terms() {
      return [];
    },
  };
  return { engine, calls };
}

describe("bestMatches", () => {
  const word = [{ prefix: "lamp", neighbours: [] }];

  it("scores up to RANK_AT_MOST matches, title matches first", async () => {
    const { engine, calls } = stubEngine(RANK_AT_MOST, 2);
    expect(await bestMatches(engine, word, 4, new BroadCounts())).toEqual({ total: RANK_AT_MOST, ids: [1, 2, 3, 4] });
    expect(calls).toEqual(["count", "title:ranked", "elsewhere:ranked"]);
  });

  it("shows the newest of a broad query, title matches first, and counts it once until the words change", async () => {
    const { engine, calls } = stubEngine(RANK_AT_MOST + 10, 3);
    const broad = new BroadCounts();
    expect(await bestMatches(engine, word, 2, broad)).toEqual({ total: RANK_AT_MOST + 10, ids: [3, 2] });
    expect(await bestMatches(engine, word, 5, broad)).toEqual({ total: RANK_AT_MOST + 10, ids: [3, 2, 1, RANK_AT_MOST + 10, RANK_AT_MOST + 9] });
    expect(calls).toEqual(["count", "title:newest", "title:newest", "elsewhere:newest"]);
    broad.clear();
    await bestMatches(engine, word, 2, broad);
    expect(calls.filter((call) => call === "count")).toHaveLength(2);
  });

  it("does not keep a count begun before the words changed", async () => {
    const broad = new BroadCounts();
    const version = broad.version;
    broad.clear();
    broad.set("k", RANK_AT_MOST + 1, version);
    expect(broad.get("k")).toBeUndefined();
    broad.set("k", RANK_AT_MOST + 1, broad.version);
    expect(broad.get("k")).toBe(RANK_AT_MOST + 1);
    // A narrow query's count is not kept: counting it again costs little.
    broad.set("narrow", 3, broad.version);
    expect(broad.get("narrow")).toBeUndefined();
  });

  it("falls back to any word when no product has them all", async () => {
    let counted = 0;
    const engine: FullTextEngine = {
      count: async (match) => (counted++, match.all ? 0 : 1),
      part: async (_match, part) => (part === "title" ? [7] : []),
      terms: async () => [],
    };
    const words = [{ prefix: "red", neighbours: [] }, { prefix: "laptop", neighbours: [] }];
    expect(await bestMatches(engine, words, 6, new BroadCounts())).toEqual({ total: 1, ids: [7] });
    expect(counted).toBe(2);
  });
});
