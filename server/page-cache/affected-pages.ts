import { availabilityText } from "../../lib/stock.ts";
import type { CatalogueChange } from "../catalogue/catalogue.ts";
import { parseProductId, type Product } from "../catalogue/product.ts";

/** What the pages show of a product: everything but the exact stock, which shows only as its text. */
const shown = ({ stock, ...rest }: Product): string => JSON.stringify({ ...rest, stock: availabilityText(stock) });

/**
 * Which cached pages (keys: path and query) a catalogue change makes wrong. A product whose shown
 * data changed (a price, a title, "In stock" becoming "Only 5 left in stock.", a sell-out) takes
 * its own page, the home page (every product), its category's results and search results with it;
 * the cart, which reads the exact stock, goes on any change. A sale that leaves plenty changes no
 * product page, so busy checkouts do not empty the page cache. A change without ids (a remote
 * refresh) affects every page.
 */
export class AffectedPages {
  /** What each product shows, and where (its category): a product that left keeps taking its category's pages with it. */
  private shown = new Map<number, { text: string; category: string }>();

  constructor(initial: readonly Product[] = []) {
    this.remember(initial);
  }

  /**
   * The pages `change` affects, given the catalogue's products after it. Only the products a change
   * names are compared (a sale among 10,000 products looks at one); one never seen before counts as
   * changed.
   */
  of(change: CatalogueChange | undefined, products: readonly Product[]): (key: string) => boolean {
    if (!change || change.ids === null) {
      this.shown = new Map();
      this.remember(products);
      return () => true;
    }
    const named = new Set(change.ids);
    const before = new Map(change.ids.map((id) => [id, this.shown.get(id)]));
    for (const id of named) this.shown.delete(id);
    this.remember(products.filter((p) => named.has(p.id)));
    const changed = change.ids.filter((id) => before.get(id)?.text !== this.shown.get(id)?.text);
    // Before and after: a product archived or moved leaves its old category's results too.
    const categories = new Set(changed.flatMap((id) => [before.get(id)?.category, this.shown.get(id)?.category]).filter((c): c is string => c !== undefined));
    return pagesShowing(new Set(changed), categories);
  }

  /** Takes note of what these products show, so that their next change can be compared with it. */
  remember(products: readonly Product[]): void {
    for (const product of products) this.shown.set(product.id, { text: shown(product), category: product.category });
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
