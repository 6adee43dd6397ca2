import { type ChangeEvent, type Ref, useImperativeHandle, useState } from "react";
import {
  type CardBrand,
  type CardError,
  type CardField,
  cardBrand,
  cvcError,
  cvcLength,
  digitsOnly,
  expiryError,
  formatCardNumber,
  formatExpiry,
  numberError,
  parseExpiry,
  postalCodeError,
  TEST_CARD,
} from "../../lib/card.ts";
import { type CardEntryHandle, errorMessage, postJson, TRY_AGAIN } from "./card-entry.ts";

const FIELDS: CardField[] = ["number", "expiry", "cvc", "postalCode"];

type CardValues = Record<CardField, string>;

/** A field's error in Stripe's wording; an incomplete field is only an error once the shopper has left it (or tries to pay). */
function fieldError(values: CardValues, field: CardField, judged: ReadonlySet<CardField>): CardError | null {
  const expiry = parseExpiry(values.expiry);
  const error =
    field === "number"
      ? numberError(values.number)
      : field === "expiry"
        ? expiryError(expiry?.expMonth ?? null, expiry?.expYear ?? null)
        : field === "cvc"
          ? cvcError(values.cvc, values.number)
          : postalCodeError(values.postalCode);
  if (!error || (error.code.startsWith("incomplete") && !judged.has(field))) return null;
  return error;
}

/**
 * The built-in test gateway's card field: number (with brand and spacing), expiry, CVC and postal
 * code. Like Stripe's card element, it judges a field once it is complete or has been left, and
 * its change event sets or clears one inline error in Stripe's wording.
 */
export function TestCardField({ ref, disabled }: { ref: Ref<CardEntryHandle>; disabled: boolean }) {
  const [values, setValues] = useState<CardValues>({ number: "", expiry: "", cvc: "", postalCode: "" });
  const [left, setLeft] = useState<ReadonlySet<CardField>>(new Set());
  const brand = cardBrand(values.number);

  const firstError = (judged: ReadonlySet<CardField>) => FIELDS.map((field) => fieldError(values, field, judged)).find(Boolean) ?? null;
  const shown = firstError(left);

  useImperativeHandle(ref, () => ({
    check() {
      const all = new Set(FIELDS);
      setLeft(all);
      return firstError(all) === null;
    },
    async confirm(clientSecret) {
      const expiry = parseExpiry(values.expiry)!;
      const card = { number: digitsOnly(values.number), ...expiry, cvc: values.cvc, postalCode: values.postalCode.trim() };
      const result = await postJson("/api/payment/confirm", { clientSecret, card });
      const id = (result.body as { paymentIntent?: { id?: unknown } } | null)?.paymentIntent?.id;
      return result.ok && typeof id === "string" ? { ok: true, paymentIntentId: id } : { ok: false, message: errorMessage(result.body, TRY_AGAIN) };
    },
  }));

  /** What every one of the four inputs shares: its value, its error state and its change and leave events. */
  const bind = (field: CardField, format: (typed: string) => string) => ({
    className: "card-field__input",
    value: values[field],
    disabled,
    "aria-invalid": shown?.field === field || undefined,
    "aria-describedby": "card-error",
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [field]: format(event.target.value) })),
    onBlur: () => setLeft((current) => new Set(current).add(field)),
  });

  return <CardInputs brand={brand} bind={bind} error={shown?.message} />;
}

type Bind = (field: CardField, format: (typed: string) => string) => object;

/** The four inputs, the inline error and the test mode's hint. */
function CardInputs({ brand, bind, error }: { brand: CardBrand; bind: Bind; error: string | undefined }) {
  return (
    <div className="card-field">
      <div className="card-field__row">
        <label className="card-field__label card-field__number">
          <span>Card number</span>
          <span className="card-field__input-wrap">
            <BrandIcon brand={brand} />
            <input name="cardnumber" inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" {...bind("number", formatCardNumber)} />
          </span>
        </label>
      </div>
      <div className="card-field__row card-field__row--three">
        <label className="card-field__label">
          <span>Expiry (MM / YY)</span>
          <input name="exp-date" inputMode="numeric" autoComplete="cc-exp" placeholder="MM / YY" {...bind("expiry", formatExpiry)} />
        </label>
        <label className="card-field__label">
          <span>CVC</span>
          <input
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            {...bind("cvc", (typed) => digitsOnly(typed).slice(0, cvcLength(brand)))}
          />
        </label>
        <label className="card-field__label">
          <span>Postal code</span>
          <input name="postal" autoComplete="postal-code" placeholder="Postal code" maxLength={10} {...bind("postalCode", (typed) => typed)} />
        </label>
      </div>
      <p id="card-error" className="error-text card-field__error" role="alert">
        {error}
      </p>
      <p className="card-field__hint">
        <strong>Test mode:</strong> no real card is charged. Pay with {TEST_CARD}, any future date, any CVC and any postal code.
      </p>
    </div>
  );
}

const BRAND_NAMES: Record<CardBrand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  unknown: "Card",
};

const BRAND_COLOURS: Partial<Record<CardBrand, string>> = { visa: "#1a1f71", mastercard: "#eb001b", amex: "#2e77bc", discover: "#e55c20" };

/** A small card picture: the brand's colour and initials once the number shows the brand. */
function BrandIcon({ brand }: { brand: CardBrand }) {
  const colour = BRAND_COLOURS[brand] ?? "#6b7280";
  const label = brand === "unknown" ? "" : brand === "mastercard" ? "MC" : brand === "amex" ? "AMEX" : BRAND_NAMES[brand].toUpperCase().slice(0, 4);
  return (
    <svg className="card-field__brand" width="32" height="22" viewBox="0 0 32 22" role="img" aria-label={BRAND_NAMES[brand]}>
      <rect x="0.5" y="0.5" width="31" height="21" rx="3" fill={brand === "unknown" ? "#fff" : colour} stroke={colour} />
      {brand === "unknown" ? (
        <rect x="0.5" y="5" width="31" height="4" fill={colour} />
      ) : (
        <text x="16" y="14.5" textAnchor="middle" fontSize="8" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
          {label}
        </text>
      )}
    </svg>
  );
}
