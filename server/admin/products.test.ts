import { describe, expect, it } from "vitest";
import { parsed, productEdit, productFields } from "./products.ts";

const base = { title: "Lamp", description: "A lamp.", category: "home", stock: "3" };

describe("a product's fields", () => {
  it("take the price in dollars, as the form and the API write it, and keep integer cents", () => {
    expect(parsed(productFields, { ...base, price: "19.99" })).toEqual({ ok: true, value: { title: "Lamp", description: "A lamp.", category: "home", stock: 3, priceCents: 1999 } });
    // 0.29 * 100 is 28.999999999999996 in floating point: rounded, never cut, to the cent.
    expect(parsed(productFields, { ...base, price: 0.29 })).toMatchObject({ ok: true, value: { priceCents: 29 } });
    expect(parsed(productEdit, { ...base, price: "1000000", version: "2" })).toMatchObject({ ok: true, value: { priceCents: 100_000_000, version: 2 } });
  });

  it("refuse a price that is not dollars and cents", () => {
    expect(parsed(productFields, { ...base, price: "1.005" })).toEqual({ ok: false, status: 400, message: "The price can have at most two decimals." });
    expect(parsed(productFields, { ...base, price: "-1" })).toEqual({ ok: false, status: 400, message: "The price cannot be negative." });
  });
});
