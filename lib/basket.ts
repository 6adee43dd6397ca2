// The basket rules the browser and the server share (spec sections 3 and 4): what a line holds,
// what it costs and how money reads. One home, so the cart page, the checkout's refusal messages
// and the server's pricing can never disagree.

import { groupThousands } from "./numbers.ts";

/** What a basket line keeps of a product: its snapshot at the time it was priced, in integer cents. */
export interface LineProduct {
  id: number;
  title: string;
  image: string;
  rating: { rate: number; count: number };
  priceCents: number;
  description: string;
}

/**
 * A basket line (spec section 3): the product as it was priced and how many. The spec's JSON calls
 * the quantity `amount`; it is renamed only where JSON is read or written.
 */
export interface BasketLine extends LineProduct {
  quantity: number;
}

/** The line `quantity` of `product` make: only the snapshot's fields, whatever else the product carries. */
export function lineFrom(product: LineProduct, quantity: number): BasketLine {
  const { id, title, image, rating, priceCents, description } = product;
  return { id, title, image, rating, priceCents, description, quantity };
}

/** What a line costs in integer cents: price x quantity. The one place a line's total is worked out. */
export const lineTotalCents = (line: Pick<BasketLine, "priceCents" | "quantity">): number => line.priceCents * line.quantity;

/** The subtotal in integer cents: the sum of the line totals, exact to the cent. */
export const subtotalCents = (lines: readonly Pick<BasketLine, "priceCents" | "quantity">[]): number => lines.reduce((sum, line) => sum + lineTotalCents(line), 0);

/** The header's cart count: the sum of the quantities, not the number of lines. */
export const basketCount = (lines: readonly Pick<BasketLine, "quantity">[]): number => lines.reduce((sum, line) => sum + line.quantity, 0);

let dollars: Intl.NumberFormat | undefined;
/** Above this many cents Intl's own figure (of cents / 100, a float) drifts from the exact one; Intl's is kept. */
const LARGEST_BY_HAND = 1e15;

/**
 * Integer cents as dollars with thousands separators and two decimals: 123400 -> "$1,234.00",
 * -5 -> "-$0.05", as `Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })` writes
 * them. Written out by hand: a page's first Intl formatter loads the browser's locale data, tens of
 * milliseconds on a slow phone in the middle of the page's start-up. Anything but a whole number of
 * cents, or more than ten trillion dollars, still goes to Intl.
 */
export function formatCents(cents: number): string {
  if (!Number.isInteger(cents) || Math.abs(cents) > LARGEST_BY_HAND || Object.is(cents, -0)) {
    dollars ??= new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    return dollars.format(cents / 100);
  }
  const size = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}$${groupThousands(Math.floor(size / 100))}.${String(size % 100).padStart(2, "0")}`;
}
