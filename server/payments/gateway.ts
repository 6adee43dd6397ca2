/**
 * The card payment provider, as the shop uses it. Two adapters: the built-in test gateway (no
 * keys, no network, Stripe's test-card semantics) and Stripe. Results are values, not exceptions.
 */
export interface PaymentGateway {
  readonly kind: "test" | "stripe";
  /** Creates a payment intent for `amount` cents. The idempotency key makes a retried call return the same intent. */
  createIntent(input: { amount: number; userId: string; checkoutId: string }): Promise<CreatedIntent>;
  /** The intent as the provider sees it now, or null when it has no such intent. */
  retrieveIntent(id: string): Promise<IntentState | null>;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
  /** Epoch milliseconds. */
  created: number;
}

export type IntentStatus = "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "succeeded" | "canceled";

export interface IntentState {
  id: string;
  status: IntentStatus;
  amount: number;
  /** Epoch milliseconds. */
  created: number;
  /** The shopper the intent was created for (from its metadata). */
  userId: string | null;
}
