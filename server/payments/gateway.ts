import type { Transaction } from "kysely";
import type { CardInput, ChargeOutcome } from "../../lib/card.ts";
import type { Schema } from "../db/schema.ts";

/**
 * The card payment provider, as the shop uses it: PaymentsService knows only this port. Two
 * adapters: the built-in test gateway (no keys, no network, Stripe's test-card semantics) and
 * Stripe. Results are values, not exceptions. What one provider offers and the other does not is a
 * member of the port (`cards`, `webhooks`), never a test of which provider it is.
 */
export interface PaymentGateway {
  /** Which provider: a label for the metrics and the payments' rows. */
  readonly kind: "test" | "stripe";
  /** How the browser pays with this provider. */
  readonly checkout: CheckoutMode;
  /** Creates a payment intent for `amountCents`. The idempotency key makes a retried call return the same intent. */
  createIntent(input: { amountCents: number; userId: string; checkoutId: string }): Promise<CreatedIntent>;
  /** The intent as the provider sees it now, or null when it has no such intent. */
  retrieveIntent(id: string): Promise<IntentState | null>;
  /**
   * The reconciler's question about an intent the shop still has in flight (`recorded`: as its
   * row has it): the intent as the provider has it now, or null when it has no such intent.
   * Where the row is the intent (the test gateway), the row is the answer, read again nowhere.
   */
  recheckIntent(recorded: IntentState): Promise<IntentState | null>;
  /**
   * Cancels an unpaid intent, so it can never be paid (Stripe: the intent's cancel call; the test
   * gateway: its row in our table). Throws when the provider refuses (it has just been paid).
   */
  cancelIntent(id: string): Promise<void>;
  /**
   * Cancels unpaid intents inside the caller's transaction, so they go with the stock released
   * for them: the test gateway's intents are our rows; Stripe's are Stripe's, cancelled after the
   * commit (cancelIntent), so for it this does nothing.
   */
  cancelWithin(trx: Transaction<Schema>, ids: string[], now: number): Promise<void>;
  /**
   * Card confirmation on our own server (the test gateway's card field); null where the browser
   * confirms with the provider itself (Stripe Elements).
   */
  readonly cards: CardConfirmation | null;
  /**
   * Refunds `amountCents` of a paid payment. The idempotency key makes a retried call return the
   * same refund, never a second one; `reference` (our refund's id) comes back in the provider's
   * notifications. A refusal is a value; a provider that cannot be reached throws.
   */
  refund(input: { paymentId: string; amountCents: number; idempotencyKey: string; reference: string }): Promise<RefundOutcome>;
  /** The provider's signed notifications (Stripe's webhook); null where it sends none (the test gateway). */
  readonly webhooks: Webhooks | null;
}

export interface Webhooks {
  /** Reads a signed notification: the body exactly as received, and its signature header. */
  parse(rawBody: string, signature: string | undefined): Promise<WebhookResult>;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
  /** Epoch milliseconds. */
  created: number;
  /**
   * What the shop keeps to recognise the client secret when the card is confirmed on our server
   * (a hash, never the secret); null where the provider confirms.
   */
  secretHash: string | null;
}

export interface CardConfirmation {
  /** The intent a client secret names, when it is genuinely that intent's (checked against the kept hash). */
  intentIdOf(clientSecret: string): string | null;
  secretMatches(clientSecret: string, secretHash: string | null): boolean;
  /** Charges the card: Stripe's test-card outcomes. */
  charge(card: CardInput, now: Date): ChargeOutcome;
}

/** Where a refund stands at the provider: the test gateway's succeed at once, Stripe's are pending until it reports. */
export type RefundStatus = "pending" | "succeeded" | "failed";

export type RefundOutcome = { ok: true; id: string; status: RefundStatus } | { ok: false; message: string };

/** A refund as the provider reports it: its id, our refund's id (`reference`) when it carries one, and its status. */
export interface GatewayRefund {
  id: string;
  reference: string | null;
  status: RefundStatus;
}

/** What the shop acts on among the provider's notifications. */
export type GatewayEvent =
  | { type: "payment_succeeded"; intentId: string }
  | { type: "refunds_updated"; refunds: GatewayRefund[] }
  | { type: "other"; name: string };

export type WebhookResult = { ok: true; event: GatewayEvent } | { ok: false; message: string };

export type IntentStatus = "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "succeeded" | "canceled";

export interface IntentState {
  id: string;
  status: IntentStatus;
  amountCents: number;
  /** Epoch milliseconds. */
  created: number;
  /** The shopper the intent was created for (from its metadata). */
  userId: string | null;
}

/** How the browser pays: our own card field, or Stripe Elements with the publishable key. */
export type CheckoutMode = { gateway: "test" } | { gateway: "stripe"; publishableKey: string };
