import { availabilityText } from "../../lib/stock.ts";
import type { CatalogueChange, ListedProduct } from "../catalogue/catalogue.ts";
import { parseProductId } from "../catalogue/product.ts";

/** What a list shows of a product's facts: everything but the exact stock, which shows only as its text. */
const shown = ({ id, category, priceCents, rating, stock }: ListedProduct): string => JSON.stringify([id, category, priceCents, rating.rate, rating.count, availabilityText(stock)]);

/** The product of `id` in `products` (ascending ids, as catalogues list them), or undefined. */
function findById<P extends ListedProduct>(products: readonly P[], id: number): P | undefined {
  let [low, high] = [0, products.length - 1];
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = products[middle]!;
    if (found.id === id) return found;
    if (found.id < id) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Which cached pages (keys: path and query) a catalogue change makes wrong. A product whose shown
 * data changed (an edit of its words, price or picture, "In stock" becoming "Only 5 left in
 * stock.", a sell-out) takes its own page, the home page (every product), its category's results
 * and search results with it; the cart, which reads the exact stock, goes on any change. A sale
 * that leaves plenty changes no page but the cart, so busy checkouts do not empty the page cache.
 * A change without ids (a remote refresh, a catalogue file) affects every page.
 */
export class AffectedPages {
  /** The catalogue's list as last seen: what a change is compared with. */
  private before: readonly ListedProduct[];

  constructor(initial: readonly ListedProduct[] = []) {
    this.before = initial;
  }

  /**
   * The pages `change` affects, given the catalogue's list after it. Only the products a change
   * names are compared (a sale among 100,000 products looks at one, found by id); where more than
   * their stock changed, each of them counts as changed.
   */
  of(change: CatalogueChange | undefined, after: readonly ListedProduct[]): (key: string) => boolean {
    const before = this.before;
    this.remember(after);
    if (!change || change.ids === null) return () => true;
    const was = (id: number) => findById(before, id);
    const is = (id: number) => findById(after, id);
    const changed = change.ids.filter((id) => {
      const [old, now] = [was(id), is(id)];
      return !change.stockOnly || !old || !now || shown(old) !== shown(now);
    });
    // Before and after: a product archived or moved leaves its old category's results too.
    const categories = new Set(changed.flatMap((id) => [was(id)?.category, is(id)?.category]).filter((c): c is string => c !== undefined));
    return pagesShowing(new Set(changed), categories);
  }

  /** Takes `products` as the list that the next change is compared with. */
  remember(products: readonly ListedProduct[]): void {
    this.before = products;
  }
}

function pagesShowing(ids: Set<number>, changedCategories: Set<string>): (key: string) => boolean {
  const categories = new Set([...changedCategories].map((category) => category.toLowerCase()));
  return (key) => {
    const path = spelledAsRoutes(key);
    if (path === "/cart") return true;
    if (ids.size === 0) return false;
    if (path === "/" || path === "/search") return true;
    const segments = path.split("/");
    if (segments.length !== 3) return false;
    const [, section, raw] = segments as [string, string, string];
    if (section === "products") {
      const id = parseProductId(raw);
      return id !== null && ids.has(id);
    }
    if (section === "results") return categories.has(raw);
    return false;
  };
}

/**
 * A key's path as the routes match it: React Router renders /Products/8, /products/8/ and
 * /%70roducts/8 as /products/8 (its matching ignores case, a trailing slash and percent-encoding),
 * and the page cache keeps each under its own spelling, so every spelling goes with the page. A
 * category differing only by case goes along too: dropping a page too many costs one render.
 */
function spelledAsRoutes(key: string): string {
  const path = safeDecode(key.split("?", 1)[0]!).toLowerCase();
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
