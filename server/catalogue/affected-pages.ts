import type { CatalogueChange } from "./catalogue.ts";
import { parseProductId, type Product } from "./product.ts";

/**
 * Which cached pages (keys: path and query) show any of the changed products: their own product
 * pages, the home page (every product), their categories' results pages, search results and the
 * cart (which reads what is available). Everything else stays cached: a sale must not empty the
 * page cache. A change without ids (a remote refresh) affects every page.
 */
export function pagesShowing(change: CatalogueChange | undefined, products: readonly Product[]): (key: string) => boolean {
  if (!change || change.ids === null) return () => true;
  const ids = new Set(change.ids);
  const categories = new Set(products.filter((p) => ids.has(p.id)).map((p) => p.category));
  return (key) => {
    const path = key.split("?", 1)[0]!;
    if (path === "/" || path === "/search" || path === "/cart") return true;
    const segments = path.split("/");
    if (segments.length !== 3) return false;
    const [, section, raw] = segments as [string, string, string];
    if (section === "products") {
      const id = parseProductId(raw);
      return id !== null && ids.has(id);
    }
    if (section === "results") return categories.has(safeDecode(raw));
    return false;
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
