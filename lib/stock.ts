// The stock texts shoppers read, in one home for the pages (app/) and the server.

export const RESERVATION_EXPIRED = "Your reservation expired. Please review your basket.";

/** The refusal of a line beyond what is available: `available` units are left of `title`. */
export function shortOf(title: string, available: number): string {
  return available <= 0 ? `${title} is out of stock.` : `Only ${available} left of ${title}.`;
}

/** What the product page says of its stock; null where stock is not tracked (unlimited). */
export function availabilityText(stock: number | null | undefined): string | null {
  if (stock == null) return null;
  if (stock <= 0) return "Currently unavailable.";
  if (stock <= 5) return `Only ${stock} left in stock.`;
  return "In stock";
}

/** What the cart says of a line whose quantity is more than the `stock` available (none left: unavailable); null when it is not. */
export function lineShortText(quantity: number, stock: number | null | undefined): string | null {
  if (stock == null || quantity <= stock) return null;
  return stock <= 0 ? "Currently unavailable." : `Only ${stock} left in stock.`;
}

/** Whether a product can be added to a basket: untracked stock (null, absent) is unlimited. */
export const inStock = (stock: number | null | undefined): boolean => stock == null || stock > 0;
