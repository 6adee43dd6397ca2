import { describe, expect, it } from "vitest";
import { markWords } from "./highlight.ts";
import { cleanQuery, MAX_QUERY_LENGTH, normalizeTerm, words } from "./text.ts";

describe("cleanQuery", () => {
  it("trims, folds white space and control characters into one space", () => {
    expect(cleanQuery("  wireless \t\n headphones  ")).toBe("wireless headphones");
    expect(cleanQuery("a\u0000b\u001fc")).toBe("a b c");
    expect(cleanQuery(" \t\n ")).toBe("");
  });

  it("cuts a query to 200 characters, never inside a character", () => {
    expect(cleanQuery("x".repeat(500))).toBe("x".repeat(MAX_QUERY_LENGTH));
    const emoji = "🎒".repeat(300);
    expect(Array.from(cleanQuery(emoji))).toHaveLength(MAX_QUERY_LENGTH);
    expect(cleanQuery(emoji)).toBe("🎒".repeat(MAX_QUERY_LENGTH));
    // A space at the cut is not kept at the end.
    expect(cleanQuery(`${"y".repeat(199)} z`)).toBe("y".repeat(199));
  });
});

describe("words and terms", () => {
  it("splits on anything that is not a letter or a digit", () => {
    expect(words("15.6-Inch Gaming Laptop")).toEqual(["15", "6", "Inch", "Gaming", "Laptop"]);
    expect(words("T-Shirt, <b>bold</b>")).toEqual(["T", "Shirt", "b", "bold", "b"]);
    // A decomposed accent stays inside its word.
    expect(words("Cafe\u0301 au lait")).toEqual(["Cafe\u0301", "au", "lait"]);
  });

  it("folds case, accents and compatibility forms", () => {
    expect(normalizeTerm("Émerald")).toBe("emerald");
    expect(normalizeTerm("Cafe\u0301")).toBe("cafe");
    expect(normalizeTerm("ＳＳＤ")).toBe("ssd");
  });
});

describe("markWords", () => {
  const show = (title: string, terms: string[]) =>
    markWords(title, new Set(terms)).map((part) => (part.match ? `[${part.text}]` : part.text)).join("");

  it("marks whole words whose term matched, and gives the title back unchanged", () => {
    expect(show("Waxed Canvas Rucksack with Leather Straps", ["rucksack", "leather"])).toBe(
      "Waxed Canvas [Rucksack] with [Leather] Straps",
    );
    expect(show("Slim-Fit Crew Neck Tee", ["fit"])).toBe("Slim-[Fit] Crew Neck Tee");
    const title = "Crème <Brûlée> & Co.";
    expect(markWords(title, new Set(["brulee"])).map((part) => part.text).join("")).toBe(title);
    expect(show(title, ["brulee"])).toBe("Crème <[Brûlée]> & Co.");
  });

  it("keeps unmarked text in one run, and marks nothing when nothing matched", () => {
    expect(markWords("Quilted Bomber Jacket", new Set())).toEqual([{ text: "Quilted Bomber Jacket", match: false }]);
    expect(markWords("Quilted Bomber Jacket", new Set(["bomber"]))).toEqual([
      { text: "Quilted ", match: false },
      { text: "Bomber", match: true },
      { text: " Jacket", match: false },
    ]);
  });
});
