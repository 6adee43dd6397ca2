// A generated catalogue of any size in catalogue/products.json's shape, for the catalogue bench:
// titles and descriptions from a small vocabulary (so searches find some and typos have neighbours),
// prices, ratings and stock spread deterministically, the embedded drawings as pictures.
import fs from "node:fs";

const LOOKS = ["Walnut", "Oak", "Slate", "Copper", "Linen", "Amber", "Cedar", "Indigo", "Ivory", "Sage", "Coral", "Onyx", "Maple", "Pearl", "Rust", "Teal", "Ash", "Birch", "Cobalt", "Jade", "Saffron", "Charcoal", "Mulberry", "Olive", "Sandstone", "Heather", "Graphite", "Juniper", "Pewter", "Umber"];
const THINGS = ["Desk Lamp", "Backpack", "Cardigan", "Bracelet", "Headphones", "Tote", "Scarf", "Watch", "Sneakers", "Ring", "Monitor", "Jacket", "Earrings", "Keyboard", "Shirt", "Necklace", "Speaker", "Blazer", "Pendant", "Charger", "Hoodie", "Wallet", "Trousers", "Anklet", "Router", "Raincoat", "Brooch", "Tablet", "Sweater", "Cufflinks"];
const TRAITS = ["hand-finished", "water-resistant", "recycled", "lightweight", "organic cotton", "brushed steel", "padded", "adjustable", "wireless", "machine-washable", "sterling silver", "quilted"];
const CATEGORIES = ["electronics", "jewelery", "men's clothing", "women's clothing"];
/** The embedded drawings: every generated product has one of them. */
const IMAGES = fs.readdirSync("catalogue/images").filter((name) => name.endsWith(".svg")).sort();

export interface GeneratedProduct {
  id: number;
  title: string;
  price: number;
  description: string;
  category: string;
  image: string;
  rating: { rate: number; count: number };
  stock: number;
}

export function generatedProduct(id: number): GeneratedProduct {
  const look = LOOKS[id % LOOKS.length]!;
  const thing = THINGS[Math.floor(id / LOOKS.length) % THINGS.length]!;
  const trait = TRAITS[(id * 7) % TRAITS.length]!;
  const other = TRAITS[(id * 11 + 3) % TRAITS.length]!;
  const title = `${look} ${thing} No. ${id}`;
  return {
    id,
    title,
    price: (500 + ((id * 7919) % 100_000)) / 100,
    description: `A ${trait} ${thing.toLowerCase()} in ${look.toLowerCase()}, ${other} and made to last. Described at some length, as real shops do, so that a row is about as long as a real one: what it is made of, how it wears, and how to look after it.`,
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
