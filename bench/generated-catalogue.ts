// A generated catalogue of any size in catalogue/products.json's shape, for the catalogue bench:
// titles and descriptions from a small vocabulary (so searches find some and typos have neighbours),
// prices, ratings and stock spread deterministically, the embedded drawings as pictures.
import fs from "node:fs";
import type { FileProduct } from "../server/catalogue/transfer/export.ts";

const LOOKS = ["Walnut", "Oak", "Slate", "Copper", "Linen", "Amber", "Cedar", "Indigo", "Ivory", "Sage", "Coral", "Onyx", "Maple", "Pearl", "Rust", "Teal", "Ash", "Birch", "Cobalt", "Jade", "Saffron", "Charcoal", "Mulberry", "Olive", "Sandstone", "Heather", "Graphite", "Juniper", "Pewter", "Umber"];
const THINGS = ["Desk Lamp", "Backpack", "Cardigan", "Bracelet", "Headphones", "Tote", "Scarf", "Watch", "Sneakers", "Ring", "Monitor", "Jacket", "Earrings", "Keyboard", "Shirt", "Necklace", "Speaker", "Blazer", "Pendant", "Charger", "Hoodie", "Wallet", "Trousers", "Anklet", "Router", "Raincoat", "Brooch", "Tablet", "Sweater", "Cufflinks"];
const TRAITS = ["hand-finished", "water-resistant", "recycled", "lightweight", "organic cotton", "brushed steel", "padded", "adjustable", "wireless", "machine-washable", "sterling silver", "quilted"];
const CATEGORIES = ["electronics", "jewelery", "men's clothing", "women's clothing"];
/** The embedded drawings: every generated product has one of them. */
const IMAGES = fs.readdirSync("catalogue/images").filter((name) => name.endsWith(".svg")).sort();

/** One product as a catalogue file has it. */
export function generatedProduct(id: number): FileProduct {
  const look = LOOKS[id % LOOKS.length]!;
  const thing = THINGS[Math.floor(id / LOOKS.length) % THINGS.length]!;
  const trait = TRAITS[(id * 7) % TRAITS.length]!;
  const other = TRAITS[(id * 11 + 3) % TRAITS.length]!;
  const title = `${look} ${thing} No. ${id}`;
  return {
    id,
    title,
    price: (500 + ((id * 7919) % 100_000)) / 100,
    description: `${/^[aeiou]/.test(trait) ? "An" : "A"} ${trait} ${thing.toLowerCase()} in ${look.toLowerCase()}, ${other} and made to last. Described at some length, as real shops do, so that a row is about as long as a real one: what it is made of, how it wears, and how to look after it.`,
    category: CATEGORIES[id % CATEGORIES.length]!,
    image: IMAGES[id % IMAGES.length]!,
    rating: { rate: Math.round(((id * 37) % 41) + 10) / 10, count: (id * 13) % 900 },
    stock: (id * 31) % 500,
  };
}

/** Writes `count` generated products (ids from `firstId` on) to `file` as a JSON array, a row at a time. */
export function writeGeneratedCatalogue(file: string, count: number, firstId: number): void {
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, "[\n");
    const last = firstId + count - 1;
    for (let id = firstId; id <= last; id++) fs.writeSync(fd, `${JSON.stringify(generatedProduct(id))}${id < last ? ",\n" : "\n"}`);
    fs.writeSync(fd, "]\n");
  } finally {
    fs.closeSync(fd);
  }
}

/** The words of the generated titles and descriptions, lower case. */
const WORDS = [...new Set([...LOOKS, ...THINGS, ...TRAITS].flatMap((phrase) => phrase.toLowerCase().split(/[\s-]+/)))];

/** `word` with its letter at `at` replaced by the next letter of the alphabet (z by a). */
const misspelt = (word: string, at: number) => `${word.slice(0, at)}${word[at] === "z" ? "a" : String.fromCharCode(word.charCodeAt(at) + 1)}${word.slice(at + 1)}`;

/**
 * What shoppers type into the search box about the generated catalogue, in a fixed shuffled order:
 * every word whole, every word as typed (each prefix from two letters), one-letter typos in each
 * word of five letters or more (a letter changed, a letter left out), and two words as typed
 * ("walnut d", "walnut de", … "walnut desk"). About 3,000 queries, so a page cache of a few hundred
 * answers serves few of them.
 */
export function searchQueries(): string[] {
  const queries = new Set<string>();
  for (const word of WORDS) {
    for (let length = 2; length <= word.length; length++) queries.add(word.slice(0, length));
    if (word.length >= 5) {
      const at = 1 + (word.length % (word.length - 2));
      queries.add(misspelt(word, at));
      queries.add(`${word.slice(0, at + 1)}${word.slice(at + 2)}`);
    }
  }
  for (const look of LOOKS) {
    for (const thing of THINGS) {
      const word = thing.split(" ")[0]!.toLowerCase();
      for (let length = 1; length <= word.length; length += 2) queries.add(`${look.toLowerCase()} ${word.slice(0, length)}`);
    }
  }
  return shuffled([...queries]);
}

/** Numbers in [0, 1) from `seed`, the same on every run (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A fixed order (a seeded Fisher-Yates shuffle): the same queries in the same order on every run and engine. */
function shuffled<T>(items: T[]): T[] {
  const random = seededRandom(47);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
