import { describe, expect, it } from "vitest";
import { formatCents } from "./money.ts";

describe("formatCents", () => {
  it.each([
    [123400, "$1,234.00"],
    [0, "$0.00"],
    [985, "$9.85"],
    [1599, "$15.99"],
    [123456789, "$1,234,567.89"],
    [5, "$0.05"],
  ])("%d cents -> %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});
