const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Integer cents as dollars with thousands separators and two decimals: 123400 -> "$1,234.00". */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}

// The same text on the server and in the browser (no hydration mismatch), whatever their zones.
const dates = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** An order's time for people: "November 22, 2026 at 3:07 AM UTC". */
export function orderDate(epochMs: number): string {
  return `${dates.format(epochMs)} UTC`;
}
