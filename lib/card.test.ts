import { describe, expect, it } from "vitest";
import { type CardInput, cardBrand, cardError, formatCardNumber, formatExpiry, luhnValid, parseExpiry } from "./card.ts";

const NOW = new Date("2026-11-22T12:00:00Z");
const card = (number: string, overrides: Partial<CardInput> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
  postalCode: "1000",
  ...overrides,
});

describe("the card field's formatting", () => {
  it.each([
    ["4242424242424242", "4242 4242 4242 4242"],
    ["4242 42", "4242 42"],
    ["42424242424242429999", "4242 4242 4242 4242"],
    ["378282246310005", "3782 822463 10005"],
    ["4242-4242", "4242 4242"],
  ])("shows %s as %s", (typed, shown) => {
    expect(formatCardNumber(typed)).toBe(shown);
  });

  it.each([
    ["1", "1"],
    ["4", "04"],
    ["12", "12"],
    ["1230", "12 / 30"],
    ["12 / 309", "12 / 30"],
  ])("shows the expiry %s as %s", (typed, shown) => {
    expect(formatExpiry(typed)).toBe(shown);
  });

  it("reads MM / YY as a month and a four-digit year, and nothing while incomplete", () => {
    expect(parseExpiry("04 / 31")).toEqual({ expMonth: 4, expYear: 2031 });
    expect(parseExpiry("04 / 3")).toBeNull();
  });

  it("knows the brands and the Luhn check", () => {
    expect(cardBrand("4242")).toBe("visa");
    expect(cardBrand("5555 5555")).toBe("mastercard");
    expect(cardBrand("3782")).toBe("amex");
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
  });
});

describe("inline errors, in Stripe's wording", () => {
  it.each([
    [card("4242 4242"), "Your card number is incomplete."],
    [card("4242 4242 4242 4241"), "Your card number is invalid."],
    [card("4242424242424242", { expMonth: 1, expYear: 2025 }), "Your card's expiration year is in the past."],
    [card("4242424242424242", { expMonth: 10, expYear: 2026 }), "Your card's expiration date is in the past."],
    [card("4242424242424242", { expMonth: 13 }), "Your card's expiration month is invalid."],
    [card("4242424242424242", { cvc: "12" }), "Your card's security code is incomplete."],
    [card("378282246310005", { cvc: "123" }), "Your card's security code is incomplete."],
    [card("4242424242424242", { postalCode: " " }), "Your postal code is incomplete."],
  ])("%j -> %s", (input, message) => {
    expect(cardError(input, NOW)?.message).toBe(message);
  });

  it("has nothing to say about a complete, valid card", () => {
    expect(cardError(card("4242 4242 4242 4242"), NOW)).toBeNull();
    expect(cardError(card("3782 822463 10005", { cvc: "1234" }), NOW)).toBeNull();
  });
});
