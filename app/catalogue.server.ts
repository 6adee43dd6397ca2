import type { AppLoadContext } from "react-router";
import { type Catalogue, CatalogueUnavailableError } from "../server/catalogue/catalogue.ts";

/**
 * Spec section 8: a catalogue fetch error is logged only; the page shows its empty state.
 * Any other error is a real bug and propagates.
 */
export async function productsOrEmpty<T>(
  context: AppLoadContext,
  read: (catalogue: Catalogue) => Promise<T[]>,
): Promise<T[]> {
  try {
    return await read(context.catalogue);
  } catch (error) {
    if (!CatalogueUnavailableError.is(error)) throw error;
    return [];
  }
}
