import type { AppLoadContext } from "react-router";
import { type Catalogue, CatalogueUnavailableError } from "../server/catalogue/catalogue.ts";

/**
 * Spec section 8: a catalogue fetch error is logged only (the adapter logs it) and the page shows
 * `fallback`: the empty list or "Product not found.". Any other error is a real bug and propagates.
 */
export async function readCatalogue<T>(
  context: AppLoadContext,
  read: (catalogue: Catalogue) => Promise<T>,
  fallback: T,
): Promise<T> {
  try {
    return await read(context.catalogue);
  } catch (error) {
    if (!CatalogueUnavailableError.is(error)) throw error;
    return fallback;
  }
}
