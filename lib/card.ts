// The card rules of our built-in test gateway, shared by the browser's card field (inline errors
// while typing) and the server (the same checks, then the outcome). Pure functions, no I/O: this
// module is bundled into the app and loaded by the server, and holds nothing that must be one.
// Wording and codes follow Stripe's card element and its test cards (the README's Payments).

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "diners" | "jcb" | "unionpay" | "unknown";

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode: string;
}

export type CardField = "number" | "expiry" | "cvc" | "postalCode";

export interface CardError {
  field: CardField;
  code: string;
  message: string;
}

export const TEST_CARD = "4242 4242 4242 4242";

const BRANDS: Array<[CardBrand, RegExp]> = [
  ["amex", /^3[47]/],
  ["diners", /^3(0[0-5]|[689])/],
  ["jcb", /^35/],
  ["visa", /^4/],
  ["mastercard", /^(5[1-5]|2[2-7])/],
  ["discover", /^6(011|4[4-9]|5)/],
  ["unionpay", /^62/],
];

export const digitsOnly = (value: string): string => value.replace(/\D/g, "");

export function cardBrand(number: string): CardBrand {
  const digits = digitsOnly(number);
  return BRANDS.find(([, pattern]) => pattern.test(digits))?.[0] ?? "unknown";
}

const numberLength = (brand: CardBrand) => (brand === "amex" ? 15 : brand === "diners" ? 14 : 16);
export const cvcLength = (brand: CardBrand): number => (brand === "amex" ? 4 : 3);

/** The number as the field shows it: 4-4-4-4, or 4-6-5 for American Express. */
export function formatCardNumber(value: string): string {
  const brand = cardBrand(value);
  const digits = digitsOnly(value).slice(0, numberLength(brand));
  const groups = brand === "amex" || brand === "diners" ? [4, 6, 5] : [4, 4, 4, 4];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(" ");
}

/** "MM / YY" as the field shows it; a first digit above 1 can only be a month 0-9. */
export function formatExpiry(value: string): string {
  let digits = digitsOnly(value);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** "MM / YY" to month and four-digit year, or null while it is incomplete. */
export function parseExpiry(value: string): { expMonth: number; expYear: number } | null {
  const digits = digitsOnly(value);
  if (digits.length !== 4) return null;
  return { expMonth: Number(digits.slice(0, 2)), expYear: 2000 + Number(digits.slice(2)) };
}

export function luhnValid(number: string): boolean {
  const digits = digitsOnly(number);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const error = (field: CardField, code: string, message: string): CardError => ({ field, code, message });

export function numberError(number: string): CardError | null {
  const digits = digitsOnly(number);
  if (digits.length < numberLength(cardBrand(digits))) return error("number", "incomplete_number", "Your card number is incomplete.");
  if (!luhnValid(digits)) return error("number", "incorrect_number", "Your card number is invalid.");
  return null;
}

export function expiryError(expMonth: number | null, expYear: number | null, now = new Date()): CardError | null {
  if (expMonth === null || expYear === null) return error("expiry", "incomplete_expiry", "Your card's expiration date is incomplete.");
  if (expMonth < 1 || expMonth > 12) return error("expiry", "invalid_expiry_month", "Your card's expiration month is invalid.");
  const year = now.getUTCFullYear();
  if (expYear < year) return error("expiry", "invalid_expiry_year_past", "Your card's expiration year is in the past.");
  if (expYear === year && expMonth < now.getUTCMonth() + 1) {
    return error("expiry", "invalid_expiry_month_past", "Your card's expiration date is in the past.");
  }
  return null;
}

export function cvcError(cvc: string, number: string): CardError | null {
  return digitsOnly(cvc).length < cvcLength(cardBrand(number))
    ? error("cvc", "incomplete_cvc", "Your card's security code is incomplete.")
    : null;
}

export function postalCodeError(postalCode: string): CardError | null {
  return postalCode.trim().length === 0 ? error("postalCode", "incomplete_zip", "Your postal code is incomplete.") : null;
}

/** The first thing wrong with the card as entered, in the order the field shows them, or null. */
export function cardError(card: CardInput, now = new Date()): CardError | null {
  return (
    numberError(card.number) ??
    expiryError(card.expMonth, card.expYear, now) ??
    cvcError(card.cvc, card.number) ??
    postalCodeError(card.postalCode)
  );
}

export type ChargeOutcome = { ok: true; brand: CardBrand; last4: string } | { ok: false; code: string; declineCode?: string; message: string };
