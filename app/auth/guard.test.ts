import { describe, expect, it } from "vitest";
import { OFF_SITE_TARGETS } from "../../test/support/open-redirects.ts";
import { safeRedirectPath } from "./guard.ts";

describe("safeRedirectPath", () => {
  it.each(OFF_SITE_TARGETS)("sends %j to / (checked after normalising, and once decoded)", (value) => {
    expect(safeRedirectPath(value)).toBe("/");
    expect(safeRedirectPath(decodeURIComponent(value))).toBe("/");
  });

  it.each(["/orders/..//x", "/%2f/x", "/a/%2e%2e/%2e%2e//x", "/./\\x", "/%0d%0aSet-Cookie:x", "/100%"])("sends %j to / too", (value) => {
    expect(safeRedirectPath(value)).toBe("/");
  });

  it.each(["/", "/payment", "/orders", "/products/3?x=1#top", "/results/men's%20clothing"])("keeps the local path %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    "//evil.example",
    "//evil.example/orders",
    "https://evil.example",
    "http:evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "/%09/evil.example".replace("%09", "\t"),
    " /orders",
    "javascript:alert(1)",
    "evil.example",
    "",
    null,
    undefined,
    ["/orders"],
  ])("sends %j to /", (value) => {
    expect(safeRedirectPath(value)).toBe("/");
  });
});
