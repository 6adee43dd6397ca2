import { describe, expect, it } from "vitest";
import { cardBrand } from "../../lib/card.ts";
import { chargeOutcome } from "./test-cards.ts";

const NOW = new Date("2026-11-22T12:00:00Z");
const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123", postalCode: "1000" });

describe("the test gateway's outcomes", () => {
  it.each([
    ["4000000000000002", "card_declined", "Your card was declined."],
    ["4000000000009995", "card_declined", "Your card has insufficient funds."],
    ["4000000000000069", "expired_card", "Your card has expired."],
    ["4000000000000127", "incorrect_cvc", "Your card's security code is incorrect."],
    ["4000000000000119", "processing_error", "An error occurred while processing your card. Try again in a little bit."],
    ["4242424242424241", "incorrect_number", "Your card number is invalid."],
  ])("%s fails with %s", (number, code, message) => {
    expect(chargeOutcome(card(number), NOW)).toMatchObject({ ok: false, code, message });
  });

  it.each(["4242424242424242", "5555555555554444", "4000056655665556"])("%s, and any other valid card, succeeds with brand and last four", (number) => {
    const outcome = chargeOutcome(card(number), NOW);
    expect(outcome).toEqual({ ok: true, brand: cardBrand(number), last4: number.slice(-4) });
  });
});
