import type { ListedProduct } from "./catalogue.ts";
import type { Product } from "./product.ts";

/** How a list page orders its products: `id` is the catalogue's own order (ascending id). */
export const LIST_SORTS = ["id", "price-asc", "price-desc", "rating"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** One page of a list: its products, and where it sits among the list's pages. */
export interface ProductPage<P = Product> {
  products: P[];
  /** This page's number, from 1. */
  page: number;
  /** How many pages the list has: at least 1, so an empty list still has its (empty) first page. */
  pages: number;
  total: number;
}

// Ties keep the catalogue's order, so a product never shows on two pages of one sort.
const byId = (a: ListedProduct, b: ListedProduct) => a.id - b.id;
const ORDERS: Record<Exclude<ListSort, "id">, (a: ListedProduct, b: ListedProduct) => number> = {
  "price-asc": (a, b) => a.priceCents - b.priceCents || byId(a, b),
  "price-desc": (a, b) => b.priceCents - a.priceCents || byId(a, b),
  // Best rated first; among equal rates, the more reviewed.
  rating: (a, b) => b.rating.rate - a.rating.rate || b.rating.count - a.rating.count || byId(a, b),
};

/** `products` (in ascending id, as a catalogue lists them) in the order `sort` names, as a new array where it differs. */
export function sortProducts<P extends ListedProduct>(products: readonly P[], sort: ListSort): readonly P[] {
  return sort === "id" ? products : [...products].sort(ORDERS[sort]);
}

/** Page `page` (from 1) of `products`, `size` a page; a page past the last has no products. */
export function pageOf<P>(products: readonly P[], page: number, size: number): ProductPage<P> {
  const total = products.length;
  const pages = Math.max(1, Math.ceil(total / size));
  return { products: products.slice((page - 1) * size, page * size), page, pages, total };
}

/**
 * The lists that pages are cut from, sorted once per version of the catalogue: a catalogue answers
 * the same array until it changes, so a list is kept under that array (and goes with it). Sorting
 * 100,000 products on every request would cost more than rendering the page. Only lists of a
 * category that has products are kept, so addresses of made-up categories keep nothing.
 */
export class SortedLists {
  private readonly lists = new WeakMap<readonly ListedProduct[], Map<string, readonly ListedProduct[]>>();

  /** `all` narrowed to `category` (every product when null) and sorted by `sort`. */
  of<P extends ListedProduct>(all: readonly P[], category: string | null, sort: ListSort): readonly P[] {
    let kept = this.lists.get(all);
    if (!kept) this.lists.set(all, (kept = new Map()));
    const key = category === null ? sort : `${sort}\u0000${category}`;
    // Kept under `all`, so what is kept under it holds the same kind of element.
    const known = kept.get(key) as readonly P[] | undefined;
    if (known) return known;
    const chosen = category === null ? all : all.filter((p) => p.category === category);
    const sorted = sortProducts(chosen, sort);
    if (sorted.length > 0) kept.set(key, sorted);
    return sorted;
  }
}
