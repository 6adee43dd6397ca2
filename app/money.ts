const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Integer cents as dollars with thousands separators and two decimals: 123400 -> "$1,234.00". */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}
