// The same text on the server and in the browser (no hydration mismatch), whatever their zones.
const dates = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** An order's time for people: "November 22, 2026 at 3:07 AM UTC". */
export function orderDate(epochMs: number): string {
  return `${dates.format(epochMs)} UTC`;
}
