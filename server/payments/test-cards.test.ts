import { describe, expect, it } from "vitest";
import { cardBrand } from "../../lib/card.ts";
import { chargeOutcome, SUCCESS_TEST_NUMBERS } from "./test-cards.ts";

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

  it.each(SUCCESS_TEST_NUMBERS)("Stripe's success test number %s pays, with brand and last four", (number) => {
    const cvc = cardBrand(number) === "amex" ? "1234" : "123";
    const outcome = chargeOutcome({ ...card(number), cvc }, NOW);
    expect(outcome).toEqual({ ok: true, brand: cardBrand(number), last4: number.slice(-4) });
  });

  it("knows 4242 4242 4242 4242, 5555 5555 5555 4444 and 4000 0566 5566 5556 (Stripe's paying test cards) as paying numbers", () => {
    expect(SUCCESS_TEST_NUMBERS).toEqual(expect.arrayContaining(["4242424242424242", "5555555555554444", "4000056655665556"]));
  });

  // Luhn-valid numbers that are not Stripe's test numbers: real cards, as far as the gateway knows.
  it.each(["4111111111111111", "5500000000000004", "371111111111114", "6011000000000004", "4242424242424259"])(
    "declines the real (non-test) card %s with Stripe's test-mode message",
    (number) => {
      expect(chargeOutcome({ ...card(number), cvc: cardBrand(number) === "amex" ? "1234" : "123" }, NOW)).toEqual({
        ok: false,
        code: "card_declined",
        declineCode: "live_mode_test_card",
        message:
          "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
      });
    },
  );
});
