// The basket rules the browser and the server share (spec sections 3 and 4): what a line holds,
// what it costs and how money reads. One home, so the cart page, the checkout's refusal messages
// and the server's pricing can never disagree.

/** What a basket line keeps of a product: its snapshot at the time it was priced, in integer cents. */
export interface LineProduct {
  id: number;
  title: string;
  image: string;
  rating: { rate: number; count: number };
  priceCents: number;
  description: string;
}

/** A basket line (spec section 3): the product as it was priced and how many (`amount`, a quantity). */
export interface BasketLine extends LineProduct {
  amount: number;
}

/** The line `amount` of `product` make: only the snapshot's fields, whatever else the product carries. */
export function lineFrom(product: LineProduct, amount: number): BasketLine {
  const { id, title, image, rating, priceCents, description } = product;
  return { id, title, image, rating, priceCents, description, amount };
}

/** The subtotal in integer cents: the sum of price x amount, exact to the cent. */
export const subtotalCents = (lines: readonly BasketLine[]): number => lines.reduce((sum, line) => sum + line.priceCents * line.amount, 0);

/** The header's cart count: the sum of the amounts, not the number of lines. */
export const basketCount = (lines: readonly BasketLine[]): number => lines.reduce((sum, line) => sum + line.amount, 0);

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Integer cents as dollars with thousands separators and two decimals: 123400 -> "$1,234.00". */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}
