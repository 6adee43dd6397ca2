import { cardBrand, type CardInput, cardError, type ChargeOutcome, digitsOnly } from "../../lib/card.ts";

/**
 * Stripe's documented test numbers that pay (https://stripe.com/docs/testing, "Cards by brand"),
 * those our card field takes (Stripe's 19-digit UnionPay number does not fit it). Only these, and
 * the failing ones below, behave as test cards: any other number is a real card, and is declined.
 */
export const SUCCESS_TEST_NUMBERS: readonly string[] = [
  "4242424242424242", // Visa
  "4000056655665556", // Visa (debit)
  "5555555555554444", // Mastercard
  "2223003122003222", // Mastercard (2-series)
  "5200828282828210", // Mastercard (debit)
  "5105105105105100", // Mastercard (prepaid)
  "378282246310005", // American Express
  "371449635398431", // American Express
  "6011111111111117", // Discover
  "6011000990139424", // Discover
  "6011981111111113", // Discover (debit)
  "3056930009020004", // Diners Club
  "36227206271667", // Diners Club (14-digit card)
  "6555900000604105", // BCcard and DinaCard
  "3566002020360505", // JCB
  "6200000000000005", // UnionPay
  "6200000000000047", // UnionPay (debit)
];
const PAYS = new Set(SUCCESS_TEST_NUMBERS);

/** What Stripe answers in test mode to a real card number (its own wording). */
export const LIVE_CARD_DECLINE = {
  code: "card_declined",
  declineCode: "live_mode_test_card",
  message:
    "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
} as const;

/** Stripe's test cards: these numbers fail as Stripe's do. */
const TEST_OUTCOMES: Record<string, Omit<Extract<ChargeOutcome, { ok: false }>, "ok">> = {
  "4000000000000002": { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
  "4000000000009995": { code: "card_declined", declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
  "4000000000000069": { code: "expired_card", message: "Your card has expired." },
  "4000000000000127": { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  "4000000000000119": {
    code: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit.",
  },
};

/** What charging this (already well-formed) card does in the test gateway. */
export function chargeOutcome(card: CardInput, now = new Date()): ChargeOutcome {
  const invalid = cardError(card, now);
  if (invalid) return { ok: false, code: invalid.code, message: invalid.message };
  const digits = digitsOnly(card.number);
  const failure = TEST_OUTCOMES[digits];
  if (failure) return { ok: false, ...failure };
  // A shop in test mode never takes a real card, even one that would be valid.
  if (!PAYS.has(digits)) return { ok: false, ...LIVE_CARD_DECLINE };
  return { ok: true, brand: cardBrand(digits), last4: digits.slice(-4) };
}
