import { lazy, type FormEvent, type RefObject, Suspense, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/payment";
import { requireUser } from "../auth/guard.ts";
import { basketCount, subtotalCents } from "../../lib/basket.ts";
import { useStore } from "../basket/store.tsx";
import { Price } from "../components/Price.tsx";
import { BasketLines } from "../components/BasketLines.tsx";
import { pageMeta } from "../meta.ts";
import { type CardEntryHandle, errorMessage, postJson, TRY_AGAIN } from "../payments/card-entry.ts";
import { TestCardField } from "../payments/TestCardField.tsx";

export const handle = { shell: false };

// Stripe.js and its React bindings are fetched only when the shop runs on Stripe.
const StripeCardField = lazy(() => import("../payments/StripeCardField.tsx"));

export const meta: Route.MetaFunction = () => pageMeta("Checkout", "Pay for your Storefront order.");

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context.user, "/payment");
  return { email: user.email, checkout: context.checkout };
}

/** Spec section 2: the hard-coded placeholder delivery address. */
const ADDRESS = ["Bole Road, House 12", "Addis Ababa", "Ethiopia"];

const PLACED_MESSAGE = "You have placed an order";

export default function Payment({ loaderData: { email, checkout } }: Route.ComponentProps) {
  const [{ basket }, dispatch] = useStore();
  const navigate = useNavigate();
  const card = useRef<CardEntryHandle>(null);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const total = subtotalCents(basket);

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (processing || !card.current?.check()) return;
    setProcessing(true);
    setError(null);
    const outcome = await placeOrder(card.current, basket, total).catch(() => ({ ok: false as const, message: TRY_AGAIN }));
    if (!outcome.ok) {
      setError(outcome.message);
      setProcessing(false);
      return;
    }
    dispatch({ type: "EMPTY_BASKET" });
    navigate("/orders", { replace: true, state: { message: PLACED_MESSAGE, orderId: outcome.paymentIntentId } });
  }

  return (
    <div className="payment">
      <h1 className="payment__title">
        Checkout (<Link to="/cart">{basketCount(basket)}</Link>) items
      </h1>

      <section className="payment__section" aria-labelledby="payment-address">
        <h2 id="payment-address" className="payment__heading">
          Delivery Address
        </h2>
        <address className="payment__address">
          <span>{email}</span>
          {ADDRESS.map((line) => (
            <span key={line}>{line}</span>
          ))}
        </address>
      </section>

      <section className="payment__section" aria-labelledby="payment-review">
        <h2 id="payment-review" className="payment__heading">
          Review items and delivery
        </h2>
        {basket.length === 0 ? (
          <p className="payment__empty">
            Your basket is empty, so there is nothing to pay for yet. <Link to="/">Continue shopping</Link>
          </p>
        ) : (
          <BasketLines lines={basket} />
        )}
      </section>

      {basket.length > 0 && <PaymentMethods checkout={checkout} card={card} processing={processing} error={error} total={total} onSubmit={pay} />}
    </div>
  );
}

/** The card entry, the total and Pay Now (spec section 2, "Checkout"). */
function PaymentMethods({
  checkout,
  card,
  processing,
  error,
  total,
  onSubmit,
}: {
  checkout: Route.ComponentProps["loaderData"]["checkout"];
  card: RefObject<CardEntryHandle | null>;
  processing: boolean;
  error: string | null;
  total: number;
  onSubmit(event: FormEvent): void;
}) {
  return (
    <section className="payment__section" aria-labelledby="payment-methods">
      <h2 id="payment-methods" className="payment__heading">
        Payment methods
      </h2>
      <form className="payment__form" onSubmit={onSubmit} noValidate>
        {error && (
          <p className="error-text payment__error" role="alert">
            {error}
          </p>
        )}
        {checkout.gateway === "stripe" ? (
          <Suspense fallback={<p>Loading the secure card field…</p>}>
            <StripeCardField ref={card} disabled={processing} publishableKey={checkout.publishableKey} />
          </Suspense>
        ) : (
          <TestCardField ref={card} disabled={processing} />
        )}
        <p className="payment__total">
          Total order amount: <Price cents={total} className="price payment__amount" />
        </p>
        <button type="submit" className="button-primary payment__pay" disabled={processing}>
          {processing ? "Please Wait..." : "Pay Now"}
        </button>
      </form>
    </section>
  );
}

/**
 * Spec section 4, the payment flow: the server prices the basket and creates the intent (the
 * total is sent in cents for it to check), then the card entry confirms it.
 */
async function placeOrder(card: CardEntryHandle, basket: Array<{ id: number; quantity: number }>, total: number) {
  // The checkout body keeps the spec's name for a line's quantity: `amount`.
  const created = await postJson("/api/payment/create", { items: basket.map(({ id, quantity }) => ({ id, amount: quantity })), total });
  if (!created.ok) return { ok: false as const, message: errorMessage(created.body, TRY_AGAIN) };
  const clientSecret = (created.body as { clientSecret?: unknown } | null)?.clientSecret;
  if (typeof clientSecret !== "string" || !clientSecret) return { ok: false as const, message: "Client secret not received from the backend." };
  return card.confirm(clientSecret);
}
