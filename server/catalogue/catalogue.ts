import type { Product } from "./product.ts";

/**
 * How the catalogue is doing, for /api/health (it never fails the health check: the pages degrade).
 * fresh: the host answered the last time it was asked (the embedded and database catalogues always are:
 * a database that does not answer shows in the health check itself).
 * stale: the host is failing since `since`; pages are served from the copy taken at `updatedAt`.
 * unavailable: there is no good copy (since `since`); pages show their fallbacks.
 */
export type CatalogueHealth =
  | { source: "embedded" | "database"; state: "fresh" }
  | { source: "remote"; state: "fresh"; updatedAt: string }
  | { source: "remote"; state: "stale"; since: string; updatedAt: string; error: string; retryAt?: string }
  | { source: "remote"; state: "unavailable"; since: string; error: string; retryAt?: string };

/**
 * What lists are sorted, cut into pages and kept up to date by: a product's listing facts, without
 * its words and pictures (a product is one too). At 100,000 products these are a few megabytes, where
 * whole products would be a few hundred.
 */
export type ListedProduct = Pick<Product, "id" | "category" | "priceCents" | "rating" | "stock">;

/** Where the shop's products come from: the shop's database, the embedded file or a remote FakeStore-compatible host. */
export interface Catalogue {
  /**
   * Every product on sale, by ascending id, as listing facts: the same array until the catalogue
   * changes and a new one after, so whatever is derived from it can be kept under it.
   */
  listed(): Promise<readonly ListedProduct[]>;
  /** One product, or null when there is no such product. */
  byId(id: number): Promise<Product | null>;
  /** The products of `ids` that are on sale, in the order of `ids` (unknown ids are left out). */
  byIds(ids: readonly number[]): Promise<Product[]>;
  /**
   * When each listed product last changed (epoch ms), where the catalogue keeps it (the shop's
   * database; a sitemap's lastmod); absent where it does not (a remote host, the embedded file).
   */
  lastModified?(): ReadonlyMap<number, number>;
  /** The catalogue's state for /api/health; answers at once, never asks the host. */
  health(): CatalogueHealth;
  /** The product pictures the pages link to, served from our own origin. */
  readonly images: ImageSource;
  /**
   * Calls `listener` whenever the catalogue's data has changed (a remote refresh that brought
   * different products), so derived data (search index, page cache) can be rebuilt. Returns the
   * function that unsubscribes. The embedded catalogue never changes while the process runs; the
   * database catalogue tells which products changed (a sale, a reservation, a stock change).
   */
  onChange(listener: (change?: CatalogueChange) => void): () => void;
}

/** What changed: these products (`ids`), or anything (`ids: null`, or no change given: a remote refresh). */
export interface CatalogueChange {
  ids: number[] | null;
  /** Nothing but these products' stock changed (a sale, a reservation, a restock): their words, prices and pictures are as they were. */
  stockOnly?: boolean;
}

/** What a picture request carries that the answer depends on. */
export interface ImageRequest {
  accept?: string;
  ifNoneMatch?: string;
}

/**
 * Where a catalogue's product pictures come from: the embedded drawings as they are, or remote
 * photos fetched, resized and cached by the image proxy. Every picture URL a product carries
 * starts with `basePath`; the HTTP layer hands each request below it to `serve`.
 */
export interface ImageSource {
  readonly basePath: string;
  /** The answer for `path` (what follows basePath): the picture, a placeholder or a 4xx. */
  serve(path: string, request: ImageRequest): Promise<Response>;
}

/**
 * The catalogue could not be reached or answered nonsense; callers degrade as the spec says. It
 * stays inside the server: pages get fallbacks from catalogueForPages, so `instanceof` is safe.
 */
export class CatalogueUnavailableError extends Error {
  override readonly name = "CatalogueUnavailableError";
}
