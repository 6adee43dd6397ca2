// The same text on the server and in the browser (no hydration mismatch), whatever their zones.
// Made when first needed, not when the module loads: this module is part of every page's first
// load, and a page's first Intl formatter loads the browser's locale data (slow on a phone).
let dates: Intl.DateTimeFormat | undefined;

/** An order's time for people: "November 22, 2026 at 3:07 AM UTC". */
export function orderDate(epochMs: number): string {
  dates ??= new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
  return `${dates.format(epochMs)} UTC`;
}
