import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { type Ref, useImperativeHandle, useState } from "react";
import { type CardEntryHandle, errorMessage, postJson, TRY_AGAIN } from "./card-entry.ts";

// Loaded only in Stripe mode (this module is imported lazily), once per publishable key.
const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => loaded.get(key) ?? loaded.set(key, loadStripe(key)).get(key)!;

/** Stripe's CardElement: Stripe.js confirms the card, then our server checks the intent and writes the order. */
export default function StripeCardField({ ref, disabled, publishableKey }: { ref: Ref<CardEntryHandle>; disabled: boolean; publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCard cardRef={ref} disabled={disabled} />
    </Elements>
  );
}

function StripeCard({ cardRef, disabled }: { cardRef: Ref<CardEntryHandle>; disabled: boolean }) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [complete, setComplete] = useState(false);

  useImperativeHandle(cardRef, () => ({
    check() {
      if (!complete && !error) setError("Your card number is incomplete.");
      return complete && stripe !== null;
    },
    async confirm(clientSecret) {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) return { ok: false, message: TRY_AGAIN };
      const result = await stripe.confirmCardPayment(clientSecret, { payment_method: { card } });
      if (result.error) return { ok: false, message: result.error.message ?? TRY_AGAIN };
      const id = result.paymentIntent.id;
      // The order is written by the server once it has checked the intent with Stripe.
      const completed = await postJson("/api/payment/complete", { paymentIntentId: id });
      return completed.ok ? { ok: true, paymentIntentId: id } : { ok: false, message: errorMessage(completed.body, TRY_AGAIN) };
    },
  }));

  return (
    <div className="card-field">
      <div className="card-field__stripe">
        <CardElement
          options={{ disabled, style: { base: { fontSize: "16px", color: "#0f1111" } } }}
          onChange={(event) => {
            setError(event.error?.message ?? null);
            setComplete(event.complete);
          }}
        />
      </div>
      <p id="card-error" className="error-text card-field__error" role="alert">
        {error}
      </p>
    </div>
  );
}
