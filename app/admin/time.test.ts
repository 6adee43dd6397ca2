import { describe, expect, it } from "vitest";
import { shopTime } from "./time.ts";

describe("shopTime", () => {
  const at = Date.UTC(2026, 10, 24, 13, 17);

  it("writes a moment in the shop's time zone and says which", () => {
    expect(shopTime(at, "UTC")).toBe("November 24, 2026 at 1:17 PM UTC");
    expect(shopTime(at, "Europe/Berlin")).toBe("November 24, 2026 at 2:17 PM GMT+1");
    expect(shopTime(at, "America/New_York")).toBe("November 24, 2026 at 8:17 AM EST");
  });

  it("moves to the next day where the zone's clock already has", () => {
    expect(shopTime(Date.UTC(2026, 10, 24, 23, 30), "Asia/Tokyo")).toBe("November 25, 2026 at 8:30 AM GMT+9");
  });
});
