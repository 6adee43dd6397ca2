import type { ProductQuery, ProductSort } from "../../server/admin/products.ts";

/** How the list can be ordered, as the page offers it (every sort the service knows, by its type). */
export const SORT_LABELS: Record<ProductSort, string> = {
  id: "Number",
  stock: "Stock, lowest first",
  "-stock": "Stock, highest first",
};

const isSort = (value: string | null): value is ProductSort => value !== null && Object.hasOwn(SORT_LABELS, value);

export const PRODUCTS_PER_PAGE = 25;

/** The list's address as the page reads it: anything it does not understand is the default, never an error. */
export function productQuery(params: URLSearchParams): Required<Omit<ProductQuery, "limit">> {
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  return {
    q: (params.get("q") ?? "").slice(0, 200),
    category: (params.get("category") ?? "").slice(0, 100),
    sort: isSort(sort) ? sort : "id",
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

/** The list's address for a query (defaults left out), e.g. for the pager's links. */
export function productListHref(query: Required<Omit<ProductQuery, "limit">>): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.category) params.set("category", query.category);
  if (query.sort !== "id") params.set("sort", query.sort);
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/products?${search}` : "/admin/products";
}
