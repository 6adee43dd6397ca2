import type { ListSort } from "../../server/catalogue/listing.ts";

/** Products a list page shows: the spec's twenty fit one page, so its screens show no pager. */
export const PAGE_SIZE = 48;

/** The orders a category page offers, as its `sort` parameter spells them, and what its select says. */
export const SORT_CHOICES = [
  { value: "id", label: "Featured" },
  { value: "price-asc", label: "Price: Low to High" },
  { value: "price-desc", label: "Price: High to Low" },
  { value: "rating", label: "Customer rating" },
] as const satisfies ReadonlyArray<{ value: ListSort; label: string }>;

/** One spelling a page: `?page=` absent, or a whole number from 1 without leading zeros; null for anything else (a 404). */
export function parsePage(raw: string | null): number | null {
  if (raw === null) return 1;
  return /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null;
}

/**
 * The order `?sort=` names. Anything else (absent, empty, an old or mistyped value) is the default
 * order: the address still shows the category, and its canonical link names the default order's.
 */
export function parseSort(raw: string | null): ListSort {
  return SORT_CHOICES.find((choice) => choice.value === raw)?.value ?? "id";
}

/** `search` (a location's query) asking for page `page` instead, every other parameter kept; page 1 is the address without one. */
export function withPage(search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The address a list page is known by: `path` on `origin`, with the order when it is not the
 * default (a sorted page holds other products than the default order's page of that number) and
 * the page from 2 on; nothing else of the query.
 */
export function canonicalHref(origin: string, path: string, sort: ListSort, page: number): string {
  const params = new URLSearchParams();
  if (sort !== "id") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `${origin}${path}${query ? `?${query}` : ""}`;
}

/** A list page's title: the page number from page 2 on. */
export const pagedTitle = (title: string, page: number): string => (page > 1 ? `${title} – page ${page}` : title);

/** The address of a category's results page. */
export const resultsPath = (category: string): string => `/results/${encodeURIComponent(category)}`;
