import type { Logger } from "../log.ts";
import { type Catalogue, CatalogueUnavailableError } from "./catalogue.ts";
import { type ListSort, pageOf, type ProductPage, SortedLists } from "./listing.ts";
import { parseProductId, type Product } from "./product.ts";

/**
 * The catalogue as pages read it. Spec section 8: a catalogue fetch error is logged only (the
 * adapter logs it) and the page shows its fallback (the empty list, "Product not found."). The
 * app never sees the server's error classes; any other error is a real bug and propagates.
 */
export interface CatalogueForPages {
  /** The products of `ids` on sale, in that order. */
  products(ids: readonly number[]): Promise<Product[]>;
  /** The product named by a URL segment, or null for a malformed or unknown id. */
  product(rawId: string): Promise<Product | null>;
  /**
   * Page `page` (from 1) of `size` products of `category` (every product when null) in the order
   * `sort` names: the slice is cut from the listing facts, and only its own products are read whole.
   */
  page(category: string | null, sort: ListSort, page: number, size: number): Promise<ProductPage>;
}

export function catalogueForPages(catalogue: Pick<Catalogue, "listed" | "byIds" | "byId">, log: Logger): CatalogueForPages {
  async function read<T>(what: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await what();
    } catch (error) {
      if (!(error instanceof CatalogueUnavailableError)) throw error;
      log.debug({ reason: error.message }, "catalogue unavailable; page shows its fallback");
      return fallback;
    }
  }
  const sorted = new SortedLists();
  return {
    products: (ids) => (ids.length === 0 ? Promise.resolve([]) : read(() => catalogue.byIds(ids), [])),
    product: (rawId) => {
      const id = parseProductId(rawId);
      return id === null ? Promise.resolve(null) : read(() => catalogue.byId(id), null);
    },
    page: (category, sort, page, size) =>
      read(async () => {
        const listed = pageOf(sorted.of(await catalogue.listed(), category, sort), page, size);
        return { ...listed, products: await catalogue.byIds(listed.products.map((p) => p.id)) };
      }, pageOf<Product>([], page, size)),
  };
}
