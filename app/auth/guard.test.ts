import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./guard.ts";

describe("safeRedirectPath", () => {
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
