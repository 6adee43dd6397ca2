import { cardBrand, type CardInput, cardError, type ChargeOutcome, digitsOnly } from "../../lib/card.ts";

/** Stripe's test cards (DESIGN.md): these numbers fail as Stripe's do; any other valid card succeeds. */
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
  return { ok: true, brand: cardBrand(digits), last4: digits.slice(-4) };
}
