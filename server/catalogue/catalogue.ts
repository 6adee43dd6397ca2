import type { Product } from "./product.ts";

/** Where the shop's products come from: the embedded catalogue or a remote FakeStore-compatible host. */
export interface Catalogue {
  /** Every product, by ascending id. */
  list(): Promise<Product[]>;
  /** The category names, sorted. */
  categories(): Promise<string[]>;
  /** The products of one category (empty for an unknown category), by ascending id. */
  inCategory(name: string): Promise<Product[]>;
  /** One product, or null when there is no such product. */
  byId(id: number): Promise<Product | null>;
  /** Image origins other than our own that pages must be allowed to load (for the CSP). */
  readonly imageOrigins: readonly string[];
}

/** The catalogue could not be reached or answered nonsense; callers degrade as the spec says. */
export class CatalogueUnavailableError extends Error {
  override readonly name = "CatalogueUnavailableError";

  /**
   * Recognises the error by name, not instanceof: the built app bundle carries its own copy of this
   * class, so an error thrown by the server's adapter is not an instance of the bundle's class.
   */
  static is(error: unknown): error is CatalogueUnavailableError {
    return error instanceof Error && error.name === "CatalogueUnavailableError";
  }
}
