// The back office's times: in the shop's time zone (SHOP_TIME_ZONE), the zone written after them,
// the same text on the server and in the browser whatever their own zones.
const formats = new Map<string, Intl.DateTimeFormat>();

/** "November 24, 2026 at 1:17 PM UTC", "November 24, 2026 at 2:17 PM GMT+1" for Europe/Berlin. */
export function shopTime(at: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" });
    formats.set(timeZone, format);
  }
  return format.format(at);
}
