import { describe, expect, it } from "vitest";
import { basketCount, formatCents, lineFrom, lineTotalCents, subtotalCents } from "./basket.ts";

const product = { id: 7, title: "Ring", image: "/r.svg", rating: { rate: 4, count: 9 }, priceCents: 123400, description: "Gold", category: "jewelery" };

describe("formatCents", () => {
  it.each([
    [123400, "$1,234.00"],
    [0, "$0.00"],
    [985, "$9.85"],
    [1599, "$15.99"],
    [123456789, "$1,234,567.89"],
    [5, "$0.05"],
    [-5, "-$0.05"],
    [-123456, "-$1,234.56"],
    [100000, "$1,000.00"],
  ])("%d cents -> %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it("writes every amount as Intl's en-US dollars do", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const amounts = [0, -0, 1, 99, 100, 101, 99999, 100000, 999999, 1000000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 12.5, 0.4, -1.5];
    for (let i = 0; i < 2000; i++) amounts.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))) * (i % 3 === 0 ? -1 : 1));
    for (const cents of amounts) expect(formatCents(cents), String(cents)).toBe(intl.format(cents / 100));
  });
});

describe("basket lines", () => {
  it("keep only the product's snapshot and the quantity", () => {
    expect(lineFrom(product, 2)).toEqual({ id: 7, title: "Ring", image: "/r.svg", rating: { rate: 4, count: 9 }, priceCents: 123400, description: "Gold", quantity: 2 });
  });

  it("cost price x quantity in integer cents", () => {
    expect(lineTotalCents(lineFrom(product, 3))).toBe(370200);
    expect(lineTotalCents({ priceCents: 1999, quantity: 0 })).toBe(0);
    expect(lineTotalCents({ priceCents: 1, quantity: 999 })).toBe(999);
  });

  it("add up exactly in cents, and count quantities rather than lines", () => {
    const lines = [lineFrom(product, 2), lineFrom({ ...product, id: 8, priceCents: 1 }, 3)];
    expect(subtotalCents(lines)).toBe(246803);
    expect(basketCount(lines)).toBe(5);
    expect(subtotalCents([])).toBe(0);
  });
});
